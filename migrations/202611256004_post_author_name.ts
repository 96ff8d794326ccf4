import type { Knex } from 'knex';

/**
 * The byline of an imported post whose author has no account here (the old site's display
 * name); shown when author_id is NULL.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE posts ADD COLUMN author_name text;');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE posts DROP COLUMN author_name;');
}
