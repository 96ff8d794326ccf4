import type { Knex } from 'knex';

/** Where an imported comment came from, so a second import of the same file adds no copy. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE comments ADD COLUMN source_system text, ADD COLUMN source_id text;
    CREATE UNIQUE INDEX comments_source_idx ON comments (source_system, source_id) WHERE source_id IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE comments DROP COLUMN source_system, DROP COLUMN source_id;');
}
