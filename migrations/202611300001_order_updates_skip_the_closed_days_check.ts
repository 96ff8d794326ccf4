import type { Knex } from 'knex';

/**
 * Most of an order's updates change nothing the analytics report reads (a mail's record, a
 * shipment): the statement trigger of 202611266002 still built both transition tables and ran its
 * function for each of them, a product drop's every confirmation. A row trigger whose WHEN compares
 * the read columns is skipped for those without a call. And the orders keep room on their pages,
 * so such an update stays in place (a HOT update) instead of adding to each of the 12 indexes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER orders_closed_update ON orders;
    CREATE FUNCTION orders_closed_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (NEW.created_at AT TIME ZONE 'UTC')::date <= analytics_closed_end()
        OR (OLD.created_at AT TIME ZONE 'UTC')::date <= analytics_closed_end() THEN
        UPDATE analytics_closed_changes SET n = n + 1;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER orders_closed_update AFTER UPDATE ON orders FOR EACH ROW
      WHEN ((OLD.created_at, OLD.paid_amount, OLD.refunded_amount, OLD.payment_status)
        IS DISTINCT FROM (NEW.created_at, NEW.paid_amount, NEW.refunded_amount, NEW.payment_status))
      EXECUTE FUNCTION orders_closed_row_changed();
    ALTER TABLE orders SET (fillfactor = 90);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE orders RESET (fillfactor);
    DROP TRIGGER orders_closed_update ON orders;
    DROP FUNCTION orders_closed_row_changed();
    CREATE TRIGGER orders_closed_update AFTER UPDATE ON orders
      REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION orders_closed_changed();
  `);
}
