import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The Orders tab's 'digital' filter (newest first); the other fulfilment filters go by status,
  // which orders_status_idx already serves.
  await knex.raw(
    `CREATE INDEX orders_digital_idx ON orders (created_at DESC) WHERE shipping_method = 'none'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX orders_digital_idx');
}
