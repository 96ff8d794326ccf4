import type { Knex } from 'knex';

/**
 * Replies, one level deep: parent_id is the top-level comment a reply is shown under;
 * reply_to_id the comment it answers (a reply, or the parent itself), whose author is told.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE comments
      ADD COLUMN parent_id integer REFERENCES comments(id) ON DELETE CASCADE,
      ADD COLUMN reply_to_id integer REFERENCES comments(id) ON DELETE SET NULL;
    CREATE INDEX comments_parent_idx ON comments (parent_id, id) WHERE parent_id IS NOT NULL;
    CREATE INDEX comments_post_top_level_idx ON comments (post_id, id DESC) WHERE approved AND parent_id IS NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE comments DROP COLUMN reply_to_id, DROP COLUMN parent_id;');
}
