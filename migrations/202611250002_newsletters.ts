import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE newsletter_subscribers DROP CONSTRAINT newsletter_subscribers_status_check;
    ALTER TABLE newsletter_subscribers ADD CONSTRAINT newsletter_subscribers_status_check
      CHECK (status IN ('pending', 'confirmed', 'unsubscribed', 'bounced'));
    ALTER TABLE newsletter_subscribers
      ADD COLUMN unsubscribed_at timestamptz,
      ADD COLUMN bounced_at timestamptz;
    CREATE INDEX newsletter_subscribers_confirmed_idx ON newsletter_subscribers (id) WHERE status = 'confirmed';

    -- One newsletter per post: the primary key refuses a second send.
    CREATE TABLE newsletters (
      post_id integer PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
      state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'sent')),
      total integer NOT NULL DEFAULT 0,
      requested_by integer REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      started_at timestamptz,
      finished_at timestamptz
    );
    CREATE INDEX newsletters_open_idx ON newsletters (state) WHERE state <> 'sent';

    -- The recipients, fixed when sending starts ('queued'); each row leaves 'queued' in the
    -- transaction that hands its mail to SMTP, so a retried or redelivered batch skips it.
    CREATE TABLE newsletter_sends (
      post_id integer NOT NULL REFERENCES newsletters(post_id) ON DELETE CASCADE,
      subscriber_id integer NOT NULL REFERENCES newsletter_subscribers(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'bounced', 'skipped')),
      error text,
      sent_at timestamptz,
      PRIMARY KEY (post_id, subscriber_id)
    );
    CREATE INDEX newsletter_sends_subscriber_idx ON newsletter_sends (subscriber_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE newsletter_sends, newsletters;
    ALTER TABLE newsletter_subscribers DROP COLUMN unsubscribed_at, DROP COLUMN bounced_at;
    UPDATE newsletter_subscribers SET status = 'unsubscribed' WHERE status = 'bounced';
    ALTER TABLE newsletter_subscribers DROP CONSTRAINT newsletter_subscribers_status_check;
    ALTER TABLE newsletter_subscribers ADD CONSTRAINT newsletter_subscribers_status_check
      CHECK (status IN ('pending', 'confirmed', 'unsubscribed'));
  `);
}
