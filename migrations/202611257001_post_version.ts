import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Bumped by every save and autosave: a save names the version it was based on and is refused
    -- when the post has moved on (another tab, another admin).
    ALTER TABLE posts ADD COLUMN version integer NOT NULL DEFAULT 1;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE posts DROP COLUMN version');
}
