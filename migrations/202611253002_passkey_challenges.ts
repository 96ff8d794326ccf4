import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The challenges handed out for a passkey ceremony, good once for 5 minutes. A sign-in's has
    -- no account yet (discoverable credentials: the passkey names it), so login_challenges, which
    -- follows a right password, does not fit.
    CREATE TABLE passkey_challenges (
      challenge text PRIMARY KEY,
      -- Registration: the signed-in account adding a passkey. Sign-in: null.
      user_id integer REFERENCES users(id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX passkey_challenges_expires_idx ON passkey_challenges (expires_at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE passkey_challenges');
}
