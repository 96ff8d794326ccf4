import type { Knex } from 'knex';

/**
 * notify: the commenter asked for mail when the comment is published or answered.
 * published_notice_at / reply_notice_at: when those mails were queued, so each goes once
 * however often the comment is approved again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE comments
      ADD COLUMN notify boolean NOT NULL DEFAULT false,
      ADD COLUMN published_notice_at timestamptz,
      ADD COLUMN reply_notice_at timestamptz;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'ALTER TABLE comments DROP COLUMN reply_notice_at, DROP COLUMN published_notice_at, DROP COLUMN notify;',
  );
}
