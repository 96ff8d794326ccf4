import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The network addresses an account has signed in from: failed sign-ins from one of them count
    -- apart from failures elsewhere, so strangers locking the account do not lock its owner out.
    CREATE TABLE sign_in_addresses (
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      client_ip text NOT NULL,
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, client_ip)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE sign_in_addresses;');
}
