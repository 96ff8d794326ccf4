import type { Knex } from 'knex';

/**
 * An order's last limited line, taken by one function call that the checkout sends together with
 * its COMMIT: the stock row's lock is then held for the decrement and the commit alone, not for a
 * round trip through the web process as well. The function raises instead of answering, so that
 * the COMMIT sent behind it never runs for a line it could not take: PS001 when the row is short
 * (or the stock is no longer limited), PS002 when the product's name, price or variant label is no
 * longer what the order priced. Names and labels come hex-encoded (UTF-8), as the call is a
 * literal statement.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION take_last_stock_line(
      line_product int, line_variant int, line_quantity int,
      priced_name bytea, priced_price int, priced_label bytea
    ) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      taken_name text;
      taken_price int;
      taken_label text;
    BEGIN
      UPDATE stock_levels s SET stock = s.stock - line_quantity
        FROM products p
        LEFT JOIN product_variants v ON v.id = NULLIF(line_variant, 0) AND v.product_id = p.id
       WHERE p.id = line_product AND p.status = 'active' AND (line_variant = 0 OR v.id IS NOT NULL)
         AND s.product_id = p.id AND s.variant_id = line_variant AND s.stock >= line_quantity
      RETURNING p.name, coalesce(v.price, p.price), v.label INTO taken_name, taken_price, taken_label;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'the stock row is short' USING ERRCODE = 'PS001';
      END IF;
      IF convert_to(taken_name, 'UTF8') IS DISTINCT FROM priced_name
         OR taken_price IS DISTINCT FROM priced_price
         OR convert_to(taken_label, 'UTF8') IS DISTINCT FROM priced_label THEN
        RAISE EXCEPTION 'the line changed' USING ERRCODE = 'PS002';
      END IF;
    END
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION take_last_stock_line(int, int, int, bytea, int, bytea)');
}
