import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- What the Account page shows of each signed-in session: when it began, when it was last
    -- seen (to the hour) and the browser it was opened in.
    ALTER TABLE sessions
      ADD COLUMN created_at timestamptz NOT NULL DEFAULT now(),
      ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now(),
      ADD COLUMN user_agent text;

    -- Who changed what, and every sign-in. Append-only: the app has no update or delete path, and
    -- the database refuses both, except the retention sweep's delete of entries past 90 days.
    CREATE TABLE audit_log (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      actor_id integer,
      actor_email text,
      action text NOT NULL,
      target text,
      status integer NOT NULL,
      request_id text,
      client_ip text
    );
    CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
    CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, at DESC);

    CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND OLD.at < now() - interval '90 days' THEN
        RETURN OLD;
      END IF;
      RAISE EXCEPTION 'audit_log is append-only';
    END $$;
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE audit_log;
    DROP FUNCTION audit_log_append_only();
    ALTER TABLE sessions DROP COLUMN created_at, DROP COLUMN last_seen_at, DROP COLUMN user_agent;
  `);
}
