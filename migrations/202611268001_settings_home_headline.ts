import type { Knex } from 'knex';

/** The home page's short line under the blog title; empty shows none (no stock 'Welcome'). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings ADD COLUMN home_headline text;');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings DROP COLUMN home_headline;');
}
