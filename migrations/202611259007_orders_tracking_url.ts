import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Projected from OrderShipped: the carrier and the tracking link the customer was sent.
  await knex.raw('ALTER TABLE orders ADD COLUMN carrier text, ADD COLUMN tracking_url text');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE orders DROP COLUMN carrier, DROP COLUMN tracking_url');
}
