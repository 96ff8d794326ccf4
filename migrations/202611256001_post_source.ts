import type { Knex } from 'knex';

/**
 * Where an imported post came from (e.g. 'wordpress' and its post id), so importing the same
 * file again finds it instead of creating a copy. NULL for posts written here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE posts ADD COLUMN source_system text, ADD COLUMN source_id text;
    CREATE UNIQUE INDEX posts_source_idx ON posts (source_system, source_id) WHERE source_id IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE posts DROP COLUMN source_system, DROP COLUMN source_id;');
}
