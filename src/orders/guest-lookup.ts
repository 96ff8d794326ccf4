import type { Db } from '../db/knex.ts';
import { rateLimit } from '../kernel/rate-limit.ts';
import { getOrderItems } from './lists.ts';
import {
  ORDER_COLUMNS,
  type OrderItemView,
  type OrderRow,
  type OrderView,
  presentOrder,
} from './presenters.ts';

/**
 * A guest's order by number and email, with misses limited per network address and per email,
 * like failed sign-ins per address and per account: order numbers are sequential, so without a
 * limit a known email would let anyone walk through a customer's orders, and the email's own
 * limit holds when the guesses come from many addresses. Each look-up takes a unit of both before
 * it runs (RateLimited past either), and a found order gives them back: only misses count.
 * The same answer (null) for an unknown number and a wrong email: nobody learns which orders exist.
 */
export async function lookupGuestOrder(db: Db, clientIp: string, rawId: string, email: string) {
  const byAddress = rateLimit(db, 'orderLookupAddress');
  const byEmail = rateLimit(db, 'orderLookupEmail');
  const emailKey = email.toLowerCase();
  await byAddress.consume(clientIp);
  if (emailKey) await byEmail.consume(emailKey);
  const found = /^\d{1,9}$/.test(rawId) && email ? await lookupOrder(db, Number(rawId), email) : null;
  if (found) {
    await byAddress.refund(clientIp);
    await byEmail.refund(emailKey);
  }
  return found;
}

/** A guest's order by number and email; null for a wrong number and a wrong email alike. */
export async function lookupOrder(
  db: Db,
  id: number,
  email: string,
): Promise<{ order: OrderView; items: OrderItemView[] } | null> {
  const row: OrderRow | undefined = await db('orders')
    .where({ id })
    .whereRaw('lower(email) = lower(?)', [email.trim()])
    .first(ORDER_COLUMNS);
  if (!row) return null;
  return { order: presentOrder(row), items: await getOrderItems(db, id) };
}
