import type { Knex } from 'knex';

/**
 * Low-stock alerts: whenever a product's stock falls to 10 or fewer, and again when it reaches 0,
 * an outbox row is written in the same transaction as the change (an order, an edit, anything),
 * so the alert can neither be lost nor sent twice for one crossing. The worker turns it into mail.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION products_low_stock_alert() RETURNS trigger AS $$
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
        jsonb_build_object('productId', NEW.id, 'stock', NEW.stock, 'level', level),
        'low-stock-' || NEW.id || '-' || level || '-' || txid_current()
      );
      RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;

    CREATE TRIGGER products_low_stock_alert
      AFTER UPDATE OF stock ON products
      FOR EACH ROW
      WHEN (NEW.stock IS DISTINCT FROM OLD.stock)
      EXECUTE FUNCTION products_low_stock_alert();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER products_low_stock_alert ON products;
    DROP FUNCTION products_low_stock_alert();
  `);
}
