import type { Db } from '../db/knex.ts';
import { isLinkKey, linkKey } from '../db/site-secret.ts';

/**
 * The key in an order's link (the payment page's return, the mails): whoever holds the link
 * sees that order, as with the order number and email of the lookup form, and no other.
 */
export function orderAccessKey(db: Db, orderId: number): Promise<string> {
  return linkKey(db, `order:${orderId}`);
}

export function isOrderAccessKey(db: Db, orderId: number, key: unknown): Promise<boolean> {
  return isLinkKey(db, `order:${orderId}`, key);
}

export async function orderLink(db: Db, publicUrl: string, orderId: number): Promise<string> {
  return `${publicUrl}/orders/${orderId}?key=${await orderAccessKey(db, orderId)}`;
}
