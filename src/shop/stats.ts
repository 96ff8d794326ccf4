import type { Db } from '../db/knex.ts';

export const LOW_STOCK_THRESHOLD = 10;

export async function productStats(db: Db): Promise<{ total: number; active: number; inactive: number }> {
  const { rows } = await db.raw(`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE status = 'active')::int AS active,
           count(*) FILTER (WHERE status = 'inactive')::int AS inactive
    FROM products`);
  return rows[0];
}

/** Orders and revenue: the money received minus the money refunded, in cents. */
export async function orderStats(
  db: Db,
): Promise<{ total: number; pending: number; revenueCents: number; refundNeeded: number }> {
  const { rows } = await db.raw(`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE status = 'pending')::int AS pending,
           coalesce(sum(paid_amount - refunded_amount), 0)::bigint AS "revenueCents",
           count(*) FILTER (WHERE refund_needed)::int AS "refundNeeded"
    FROM orders`);
  return { ...rows[0], revenueCents: Number(rows[0].revenueCents) };
}

/**
 * Products and variants with 10 or fewer left (empty stock means unlimited), the emptiest first;
 * a variant is named with its label, 'Penstand T-shirt (Size: M)'.
 */
export async function lowStockProducts(
  db: Db,
  limit = 10,
): Promise<{ id: number; name: string; price: number; stock: number }[]> {
  const { rows } = await db.raw(
    `SELECT p.id, CASE WHEN v.id IS NULL THEN p.name ELSE p.name || ' (' || v.label || ')' END AS name,
            coalesce(v.price, p.price) AS price, s.stock
     FROM stock_levels s JOIN products p ON p.id = s.product_id
     LEFT JOIN product_variants v ON v.id = s.variant_id AND v.product_id = s.product_id
     WHERE s.stock IS NOT NULL AND s.stock <= ? AND p.status = 'active'
       AND (v.id IS NOT NULL) = (s.variant_id <> 0)
     ORDER BY s.stock, name LIMIT ?`,
    [LOW_STOCK_THRESHOLD, limit],
  );
  return rows;
}
