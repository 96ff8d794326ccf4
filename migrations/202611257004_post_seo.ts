import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Optional search and social overrides; empty means the post's title, excerpt, own address and
    -- featured image.
    ALTER TABLE posts
      ADD COLUMN meta_title text,
      ADD COLUMN meta_description text,
      ADD COLUMN canonical_url text,
      ADD COLUMN social_image text;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'ALTER TABLE posts DROP COLUMN meta_title, DROP COLUMN meta_description, DROP COLUMN canonical_url, DROP COLUMN social_image',
  );
}
