import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- A post's secret preview link, one per post (a new one replaces it). Only the token's SHA-256
    -- is kept: the database alone does not open the preview.
    CREATE TABLE post_preview_links (
      post_id integer PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
      token_hash bytea NOT NULL UNIQUE,
      created_by integer REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE post_preview_links');
}
