import type { Knex } from 'knex';

/**
 * Variants: a product's options (up to 3, e.g. Size and Colour, each with its values) and one
 * variant per combination with its own SKU, optional price and image. A cart line and an order
 * line name the variant they are for; an order line keeps the variant's label ('Size: M') as the
 * order saw it, so a later edit of the product does not rewrite the order.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE products ADD COLUMN options jsonb NOT NULL DEFAULT '[]'::jsonb;

    CREATE TABLE product_variants (
      id serial PRIMARY KEY,
      product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      position integer NOT NULL,
      options jsonb NOT NULL,
      label text NOT NULL,
      sku text NOT NULL DEFAULT '',
      price integer CHECK (price IS NULL OR price >= 0),
      image text,
      UNIQUE (product_id, position)
    );

    ALTER TABLE cart_items ADD COLUMN variant_id integer REFERENCES product_variants(id) ON DELETE CASCADE;
    ALTER TABLE cart_items DROP CONSTRAINT cart_items_cart_id_product_id_key;
    CREATE UNIQUE INDEX cart_items_line_idx ON cart_items (cart_id, product_id, (coalesce(variant_id, 0)));

    ALTER TABLE order_items ADD COLUMN variant_id integer, ADD COLUMN variant text;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE order_items DROP COLUMN variant_id, DROP COLUMN variant;
    DROP INDEX cart_items_line_idx;
    DELETE FROM cart_items WHERE variant_id IS NOT NULL;
    ALTER TABLE cart_items DROP COLUMN variant_id;
    ALTER TABLE cart_items ADD CONSTRAINT cart_items_cart_id_product_id_key UNIQUE (cart_id, product_id);
    DROP TABLE product_variants;
    ALTER TABLE products DROP COLUMN options;
  `);
}
