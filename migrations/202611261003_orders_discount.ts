import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Projected from OrderPlaced (orders placed before discount codes carry none).
  await knex.raw(`
    ALTER TABLE orders
      ADD COLUMN discount_code text,
      ADD COLUMN discount_amount integer NOT NULL DEFAULT 0 CHECK (discount_amount >= 0)
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE orders DROP COLUMN discount_code, DROP COLUMN discount_amount');
}
