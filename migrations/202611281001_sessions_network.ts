import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The network (an IPv4 /24, an IPv6 /48) a signed-in session was last used from: the Account
    -- page shows it beside the browser, so two sessions of one browser can be told apart.
    ALTER TABLE sessions ADD COLUMN network text;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE sessions DROP COLUMN network;');
}
