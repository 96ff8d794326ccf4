import type { Knex } from 'knex';

/**
 * Stock in its own rows: one per product (variant_id 0) and one per variant, null meaning
 * unlimited. Nothing references this table by foreign key, so an order's decrement locks a row
 * no cart or order line holds KEY SHARE on (docs/performance.md: every decrement of
 * products.stock made a multixact). The low-stock alert moves with the column.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE stock_levels (
      product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      variant_id integer NOT NULL DEFAULT 0,
      stock integer CHECK (stock IS NULL OR stock >= 0),
      PRIMARY KEY (product_id, variant_id)
    );
    INSERT INTO stock_levels (product_id, variant_id, stock) SELECT id, 0, stock FROM products;
    CREATE INDEX stock_levels_low_idx ON stock_levels (stock) WHERE stock IS NOT NULL AND stock <= 10;

    DROP TRIGGER products_low_stock_alert ON products;
    DROP FUNCTION products_low_stock_alert();
    ALTER TABLE products DROP COLUMN stock;

    CREATE FUNCTION stock_levels_low_stock_alert() RETURNS trigger AS $$
    DECLARE
      level text;
    BEGIN
      IF NEW.stock IS NULL THEN
        RETURN NEW;
      ELSIF NEW.stock = 0 AND (OLD.stock IS NULL OR OLD.stock > 0) THEN
        level := 'out';
      ELSIF NEW.stock <= 10 AND (OLD.stock IS NULL OR OLD.stock > 10) THEN
        level := 'low';
      ELSE
        RETURN NEW;
      END IF;
      INSERT INTO outbox (queue, job_name, payload, job_id)
      VALUES (
        'maintenance',
        'maintenance.low-stock-alert',
        jsonb_build_object('productId', NEW.product_id, 'variantId', NEW.variant_id, 'stock', NEW.stock, 'level', level),
        'low-stock-' || NEW.product_id || '-' || NEW.variant_id || '-' || level || '-' || txid_current()
      );
      RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;

    CREATE TRIGGER stock_levels_low_stock_alert
      AFTER UPDATE OF stock ON stock_levels
      FOR EACH ROW
      WHEN (NEW.stock IS DISTINCT FROM OLD.stock)
      EXECUTE FUNCTION stock_levels_low_stock_alert();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER stock_levels_low_stock_alert ON stock_levels;
    DROP FUNCTION stock_levels_low_stock_alert();
    ALTER TABLE products ADD COLUMN stock integer CHECK (stock IS NULL OR stock >= 0);
    UPDATE products p SET stock = s.stock FROM stock_levels s WHERE s.product_id = p.id AND s.variant_id = 0;
    DROP TABLE stock_levels;
  `);
}
