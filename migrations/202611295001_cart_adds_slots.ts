import type { Knex } from 'knex';

/**
 * A product's add-to-carts of a day in up to 16 rows, one per slot: an add counts in the slot of
 * the server process (connection) that runs it, so the adds of a product drop no longer queue for
 * one row's lock, each waiting for the previous add's commit. Reports sum the slots.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE analytics_cart_adds ADD COLUMN slot smallint NOT NULL DEFAULT 0;
    ALTER TABLE analytics_cart_adds DROP CONSTRAINT analytics_cart_adds_pkey;
    ALTER TABLE analytics_cart_adds ADD PRIMARY KEY (day, product_id, slot);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TEMP TABLE cart_adds_summed ON COMMIT DROP AS
      SELECT day, product_id, sum(adds)::int AS adds FROM analytics_cart_adds GROUP BY day, product_id;
    DELETE FROM analytics_cart_adds;
    ALTER TABLE analytics_cart_adds DROP CONSTRAINT analytics_cart_adds_pkey;
    ALTER TABLE analytics_cart_adds DROP COLUMN slot;
    ALTER TABLE analytics_cart_adds ADD PRIMARY KEY (day, product_id);
    INSERT INTO analytics_cart_adds (day, product_id, adds) SELECT day, product_id, adds FROM cart_adds_summed;
  `);
}
