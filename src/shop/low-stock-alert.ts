import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';
import { formatPrice } from './price.ts';

export type LowStockAlert = { productId: number; stock: number; level: 'low' | 'out' };

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
  const product = await db('products').where({ id: alert.productId }).first('id', 'name', 'price', 'stock');
  if (!product) return 0;
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
