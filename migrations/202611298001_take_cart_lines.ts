import type { Knex } from 'knex';

/**
 * A checkout's take of its cart as a function: the cart row is locked by one statement, and its
 * lines are deleted and read with their products by the next, which under READ COMMITTED (a
 * VOLATILE function's statements each take a new snapshot) sees what was committed while the lock
 * was awaited: a price or stock changed meanwhile is read, not the one from before the wait. The
 * order then needs no second read of a line whose stock is unlimited (ADR 028). The order's id is
 * drawn only when a line is on sale (an uncorrelated subquery, evaluated once and only when asked).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION take_cart_lines(owner_user integer, owner_session text)
    RETURNS TABLE (
      product_id integer, variant_id integer, variant text, quantity integer, name text,
      price integer, stock integer, status text, category text, order_id integer, line_id integer
    ) LANGUAGE plpgsql VOLATILE AS $$
    #variable_conflict use_column
    DECLARE
      locked_cart integer;
    BEGIN
      IF owner_user IS NOT NULL THEN
        SELECT c.id INTO locked_cart FROM carts c WHERE c.user_id = owner_user FOR UPDATE;
      ELSE
        SELECT c.id INTO locked_cart FROM carts c WHERE c.session_id = owner_session FOR UPDATE;
      END IF;
      IF locked_cart IS NULL THEN
        RETURN;
      END IF;
      RETURN QUERY
        WITH taken AS (
          DELETE FROM cart_items i WHERE i.cart_id = locked_cart
          RETURNING i.product_id, i.variant_id, i.quantity
        )
        SELECT t.product_id, t.variant_id, v.label, t.quantity, p.name,
               coalesce(v.price, p.price), s.stock, p.status, p.category,
               CASE WHEN on_sale.ok THEN (SELECT nextval('order_ids')::int) END,
               CASE WHEN on_sale.ok THEN nextval('order_items_id_seq')::int END
        FROM taken t JOIN products p ON p.id = t.product_id
        LEFT JOIN product_variants v ON v.id = t.variant_id
        LEFT JOIN stock_levels s ON s.product_id = t.product_id AND s.variant_id = coalesce(t.variant_id, 0)
        CROSS JOIN LATERAL (SELECT p.status = 'active' AND (s.stock IS NULL OR s.stock >= t.quantity) AS ok) on_sale
        ORDER BY t.product_id, t.variant_id NULLS FIRST;
    END
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION take_cart_lines(integer, text)');
}
