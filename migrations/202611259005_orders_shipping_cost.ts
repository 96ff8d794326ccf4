import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Projected from OrderPlaced (orders placed before carry none: 0).
  await knex.raw(
    'ALTER TABLE orders ADD COLUMN shipping_cost integer NOT NULL DEFAULT 0 CHECK (shipping_cost >= 0)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE orders DROP COLUMN shipping_cost');
}
