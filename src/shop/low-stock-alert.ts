import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';
import { formatPrice } from './price.ts';

export type LowStockAlert = { productId: number; variantId?: number; stock: number; level: 'low' | 'out' };

/**
 * Mails every admin about one low-stock crossing. alertId (the job's id) makes a retried job
 * enqueue the same mail jobs again, which the queue ignores.
 */
export async function sendLowStockAlert(
  db: Db,
  queues: Queues,
  alert: LowStockAlert,
  alertId: string,
  shop: { baseUrl: string; currency: string },
) {
  const variantId = alert.variantId ?? 0;
  const found = await db('products as p')
    .leftJoin('product_variants as v', (j) =>
      j.on('v.product_id', 'p.id').andOn('v.id', db.raw('?', [variantId])),
    )
    .leftJoin('stock_levels as s', (j) =>
      j.on('s.product_id', 'p.id').andOn('s.variant_id', db.raw('?', [variantId])),
    )
    .where('p.id', alert.productId)
    .first('p.name', 'v.label', db.raw('coalesce(v.price, p.price) AS price'), 's.stock');
  // A variant is named with its label: 'Penstand T-shirt (Size: M)'.
  if (!found || (variantId !== 0 && !found.label)) return 0;
  const product = { ...found, name: found.label ? `${found.name} (${found.label})` : found.name };
  const admins: { id: number; email: string }[] = await db('users')
    .where({ role: 'admin' })
    .select('id', 'email');
  const subject =
    alert.level === 'out'
      ? `Out of stock: ${product.name}`
      : `Low stock: ${product.name} (${alert.stock} left)`;
  const text = [
    alert.level === 'out'
      ? `${product.name} has sold out.`
      : `${product.name} is running low: ${alert.stock} left in stock.`,
    `Price: ${formatPrice(product.price, shop.currency)}. Stock now: ${product.stock ?? 'unlimited'}.`,
    `Restock it in the admin area: ${shop.baseUrl}/admin?tab=products`,
  ].join('\n\n');
  for (const admin of admins) {
    await queues.enqueue(
      'mail.send',
      { to: admin.email, subject, text },
      { jobId: `${alertId}-to-${admin.id}` },
    );
  }
  return admins.length;
}
