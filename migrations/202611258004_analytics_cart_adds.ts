import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Add-to-carts per product per UTC day: the second step of a product's funnel.
    CREATE TABLE analytics_cart_adds (
      day date NOT NULL,
      product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      adds integer NOT NULL DEFAULT 0,
      PRIMARY KEY (day, product_id)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE analytics_cart_adds');
}
