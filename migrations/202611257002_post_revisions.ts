import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- A post's history: every explicit save, publish and restore, and at most one autosave per
    -- 10 minutes (rewritten in place within its window). Up to 50 per post, oldest dropped first.
    CREATE TABLE post_revisions (
      id serial PRIMARY KEY,
      post_id integer NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('save', 'publish', 'autosave', 'restore')),
      -- The post's version this revision made (an autosave's is the draft copy's).
      version integer NOT NULL,
      author_id integer REFERENCES users(id) ON DELETE SET NULL,
      title text NOT NULL,
      excerpt text NOT NULL,
      content text NOT NULL,
      -- Everything else the editor holds (category, tags, images, status, publish time, slug).
      settings jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX post_revisions_post_idx ON post_revisions (post_id, id DESC);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE post_revisions');
}
