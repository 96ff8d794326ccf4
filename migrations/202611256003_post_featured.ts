import type { Knex } from 'knex';

/** A post the writer pinned (WordPress sticky, Ghost featured). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE posts ADD COLUMN featured boolean NOT NULL DEFAULT false;');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE posts DROP COLUMN featured;');
}
