import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The browsers an account has signed in from (browser, system and device class, hashed): a
    -- sign-in from one not in this list mails the account's owner.
    CREATE TABLE known_devices (
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      device_key text NOT NULL,
      first_seen_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, device_key)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE known_devices;');
}
