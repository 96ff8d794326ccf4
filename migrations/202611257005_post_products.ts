import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The products a post shows with [product:ID] markers, kept on every save: a product page's
    -- 'Featured in' list reads it by product. No foreign key to products: a marker may name a
    -- product that was deleted or never existed (readers then see nothing there).
    CREATE TABLE post_products (
      post_id integer NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      product_id integer NOT NULL,
      PRIMARY KEY (post_id, product_id)
    );
    CREATE INDEX post_products_product_idx ON post_products (product_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE post_products');
}
