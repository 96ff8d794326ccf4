import type { Knex } from 'knex';

/**
 * A large limited stock kept in a few rows (shards) whose sum is the stock, so a drop's orders do
 * not all wait on one row's lock. Shard 0 always exists for a product or variant: an unlimited
 * stock (null) and a stock of at most SHARD_FROM units stay that one row. A larger stock keeps
 * RESERVE units in shard 0 and the rest spread over shards 1–7.
 *
 * take_stock takes a line's units: first from one shard above 0 that has them and that no other
 * order holds (FOR UPDATE SKIP LOCKED, each backend starting at its own shard), so orders never
 * wait on one another there; otherwise it locks every shard in shard order (no deadlock with
 * another order doing the same) and takes across them, shard 0 last. Shard 0 is thus taken only
 * once the other shards are empty, and units given back go to shard 0: while any shard above 0
 * has units, the stock is at least RESERVE (above the low-stock level, 10), so a take from a shard
 * above 0 never crosses a low-stock level, and the low-stock alert watches shard 0 alone, whose
 * takes hold every shard's lock and so see the exact sum.
 */
const SHARD_FROM = 100;
const RESERVE = 11;
const SHARDS = 8;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE stock_levels ADD COLUMN shard smallint NOT NULL DEFAULT 0 CHECK (shard >= 0 AND shard < ${SHARDS});
    ALTER TABLE stock_levels DROP CONSTRAINT stock_levels_pkey;
    ALTER TABLE stock_levels ADD PRIMARY KEY (product_id, variant_id, shard);

    CREATE OR REPLACE FUNCTION stock_levels_low_stock_alert() RETURNS trigger AS $$
    DECLARE
      level text;
      after_total int;
      before_total int;
    BEGIN
      IF NEW.stock IS NULL THEN
        RETURN NEW;
      END IF;
      -- The other shards: empty whenever shard 0 is taken from (see migration 202611301002).
      SELECT NEW.stock + coalesce(sum(s.stock), 0) INTO after_total FROM stock_levels s
       WHERE s.product_id = NEW.product_id AND s.variant_id = NEW.variant_id AND s.shard > 0;
      before_total := after_total - NEW.stock + OLD.stock;
      IF after_total = 0 AND (OLD.stock IS NULL OR before_total > 0) THEN
        level := 'out';
      ELSIF after_total <= 10 AND (OLD.stock IS NULL OR before_total > 10) THEN
        level := 'low';
      ELSE
        RETURN NEW;
      END IF;
      INSERT INTO outbox (queue, job_name, payload, job_id)
      VALUES (
        'maintenance',
        'maintenance.low-stock-alert',
        jsonb_build_object('productId', NEW.product_id, 'variantId', NEW.variant_id, 'stock', after_total, 'level', level),
        'low-stock-' || NEW.product_id || '-' || NEW.variant_id || '-' || level || '-' || txid_current()
      );
      RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;

    DROP TRIGGER stock_levels_low_stock_alert ON stock_levels;
    CREATE TRIGGER stock_levels_low_stock_alert
      AFTER UPDATE OF stock ON stock_levels
      FOR EACH ROW
      WHEN (NEW.shard = 0 AND NEW.stock IS DISTINCT FROM OLD.stock)
      EXECUTE FUNCTION stock_levels_low_stock_alert();

    -- Sets a stock (null: unlimited): the other shards first, shard 0 last, so the alert sees the new sum.
    CREATE FUNCTION set_stock(line_product int, line_variant int, new_stock int) RETURNS void
    LANGUAGE plpgsql AS $$
    DECLARE
      spread int := CASE WHEN new_stock > ${SHARD_FROM} THEN new_stock - ${RESERVE} ELSE 0 END;
    BEGIN
      -- Shard 0 first, in shard order as every take locks them: two settings of one stock queue here.
      INSERT INTO stock_levels (product_id, variant_id, shard, stock)
      VALUES (line_product, line_variant, 0, new_stock)
      ON CONFLICT (product_id, variant_id, shard) DO NOTHING;
      PERFORM 1 FROM stock_levels s WHERE s.product_id = line_product AND s.variant_id = line_variant
        ORDER BY s.shard FOR UPDATE;
      DELETE FROM stock_levels s WHERE s.product_id = line_product AND s.variant_id = line_variant AND s.shard > 0;
      IF spread > 0 THEN
        INSERT INTO stock_levels (product_id, variant_id, shard, stock)
        SELECT line_product, line_variant, n, spread / ${SHARDS - 1} + CASE WHEN n <= spread % ${SHARDS - 1} THEN 1 ELSE 0 END
          FROM generate_series(1, ${SHARDS - 1}) n;
      END IF;
      UPDATE stock_levels s SET stock = new_stock - spread
       WHERE s.product_id = line_product AND s.variant_id = line_variant AND s.shard = 0;
    END
    $$;

    -- A line's units taken from a limited stock; false when it is short, or unlimited (no row is then locked).
    CREATE FUNCTION take_stock(line_product int, line_variant int, line_quantity int) RETURNS boolean
    LANGUAGE plpgsql AS $$
    DECLARE
      total int;
    BEGIN
      UPDATE stock_levels s SET stock = s.stock - line_quantity
       WHERE s.product_id = line_product AND s.variant_id = line_variant
         AND s.shard = (
           SELECT f.shard FROM stock_levels f
            WHERE f.product_id = line_product AND f.variant_id = line_variant
              AND f.shard > 0 AND f.stock >= line_quantity
            ORDER BY (f.shard + pg_backend_pid()) % ${SHARDS}
            LIMIT 1 FOR UPDATE SKIP LOCKED);
      IF FOUND THEN
        RETURN true;
      END IF;
      SELECT sum(l.stock) INTO total FROM (
        SELECT s.stock FROM stock_levels s
         WHERE s.product_id = line_product AND s.variant_id = line_variant AND s.stock IS NOT NULL
         ORDER BY s.shard FOR UPDATE
      ) l;
      IF total IS NULL OR total < line_quantity THEN
        RETURN false;
      END IF;
      -- Each shard gives what the line still needs after the shards before it, shard 0 last.
      UPDATE stock_levels s SET stock = s.stock - t.taken
        FROM (
          SELECT f.shard, least(f.stock, greatest(0, line_quantity - coalesce(sum(f.stock) OVER (
                   ORDER BY f.shard = 0, f.shard ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))) AS taken
            FROM stock_levels f
           WHERE f.product_id = line_product AND f.variant_id = line_variant
        ) t
       WHERE s.product_id = line_product AND s.variant_id = line_variant AND s.shard = t.shard AND t.taken > 0;
      RETURN true;
    END
    $$;

    -- The cart's take reads a line's stock as the sum of its shards.
    CREATE OR REPLACE FUNCTION take_cart_lines(owner_user integer, owner_session text)
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
        LEFT JOIN LATERAL (
          SELECT sum(l.stock)::int AS stock FROM stock_levels l
           WHERE l.product_id = t.product_id AND l.variant_id = coalesce(t.variant_id, 0)
        ) s ON true
        CROSS JOIN LATERAL (SELECT p.status = 'active' AND (s.stock IS NULL OR s.stock >= t.quantity) AS ok) on_sale
        ORDER BY t.product_id, t.variant_id NULLS FIRST;
    END
    $$;

    CREATE OR REPLACE FUNCTION take_last_stock_line(
      line_product int, line_variant int, line_quantity int,
      priced_name bytea, priced_price int, priced_label bytea
    ) RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
      taken_name text;
      taken_price int;
      taken_label text;
    BEGIN
      IF NOT take_stock(line_product, line_variant, line_quantity) THEN
        RAISE EXCEPTION 'the stock is short' USING ERRCODE = 'PS001';
      END IF;
      SELECT p.name, coalesce(v.price, p.price), v.label INTO taken_name, taken_price, taken_label
        FROM products p
        LEFT JOIN product_variants v ON v.id = NULLIF(line_variant, 0) AND v.product_id = p.id
       WHERE p.id = line_product AND p.status = 'active' AND (line_variant = 0 OR v.id IS NOT NULL);
      IF NOT FOUND THEN
        RAISE EXCEPTION 'the product is no longer on sale' USING ERRCODE = 'PS001';
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
  await knex.raw(`
    DROP FUNCTION take_stock(int, int, int);
    DROP FUNCTION set_stock(int, int, int);
    CREATE TEMP TABLE stock_totals ON COMMIT DROP AS
      SELECT product_id, variant_id, CASE WHEN bool_or(stock IS NULL) THEN NULL ELSE sum(stock)::int END AS stock
        FROM stock_levels GROUP BY product_id, variant_id;
    DELETE FROM stock_levels WHERE shard > 0;
    -- The trigger names the shard column; it is made again below as it was.
    DROP TRIGGER stock_levels_low_stock_alert ON stock_levels;
    UPDATE stock_levels s SET stock = t.stock FROM stock_totals t
     WHERE s.product_id = t.product_id AND s.variant_id = t.variant_id;
    ALTER TABLE stock_levels DROP CONSTRAINT stock_levels_pkey;
    ALTER TABLE stock_levels ADD PRIMARY KEY (product_id, variant_id);
    ALTER TABLE stock_levels DROP COLUMN shard;
  `);
  // The functions and the trigger as the migrations before this one made them.
  const takeLastLine = await import('./202611296001_take_last_stock_line.ts');
  await takeLastLine.down(knex);
  await takeLastLine.up(knex);
  const takeCartLines = await import('./202611298001_take_cart_lines.ts');
  await takeCartLines.down(knex);
  await takeCartLines.up(knex);
  await knex.raw(`
    CREATE OR REPLACE FUNCTION stock_levels_low_stock_alert() RETURNS trigger AS $$
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
