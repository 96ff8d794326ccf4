import type { Knex } from 'knex';

/** Set when the post's author or an admin wrote the comment signed in: shown as 'Author'. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE comments ADD COLUMN by_author boolean NOT NULL DEFAULT false;');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE comments DROP COLUMN by_author;');
}
