import type { Knex } from 'knex';

/**
 * Imported posts and comments are keyed by the site they came from as well: any two WordPress
 * sites share ids 1–200, and a key of system and id alone let the second site's import update
 * the first site's posts. Rows imported before this keep an empty site: the next import of their
 * own file claims them (same id and the same title or slug), nothing else does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE posts ADD COLUMN source_site text NOT NULL DEFAULT '';
    ALTER TABLE comments ADD COLUMN source_site text NOT NULL DEFAULT '';
    DROP INDEX posts_source_idx;
    CREATE UNIQUE INDEX posts_source_idx ON posts (source_system, source_site, source_id) WHERE source_id IS NOT NULL;
    DROP INDEX comments_source_idx;
    CREATE UNIQUE INDEX comments_source_idx ON comments (source_system, source_site, source_id) WHERE source_id IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX posts_source_idx;
    DROP INDEX comments_source_idx;
    ALTER TABLE posts DROP COLUMN source_site;
    ALTER TABLE comments DROP COLUMN source_site;
    CREATE UNIQUE INDEX posts_source_idx ON posts (source_system, source_id) WHERE source_id IS NOT NULL;
    CREATE UNIQUE INDEX comments_source_idx ON comments (source_system, source_id) WHERE source_id IS NOT NULL;
  `);
}
