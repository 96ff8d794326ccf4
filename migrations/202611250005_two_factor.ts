import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- TOTP two-factor for local accounts: the secret being set up, the active one, and the last
    -- time step used (a code is good once).
    ALTER TABLE users
      ADD COLUMN totp_pending_secret text,
      ADD COLUMN totp_secret text,
      ADD COLUMN totp_enabled_at timestamptz,
      ADD COLUMN totp_last_step bigint;

    CREATE TABLE recovery_codes (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      code_hash text NOT NULL,
      used_at timestamptz
    );
    CREATE INDEX recovery_codes_user_idx ON recovery_codes (user_id);

    -- The second step of a sign-in: the password was right, the code is awaited (5 minutes).
    CREATE TABLE login_challenges (
      id text PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      -- What the identity provider gave the first step, for the session the second one opens.
      session jsonb NOT NULL DEFAULT '{}'::jsonb
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE login_challenges, recovery_codes;
    ALTER TABLE users DROP COLUMN totp_pending_secret, DROP COLUMN totp_secret,
      DROP COLUMN totp_enabled_at, DROP COLUMN totp_last_step;
  `);
}
