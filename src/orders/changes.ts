import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { writeOutbox } from '../jobs/outbox.ts';
import { Conflict, NotFound } from '../kernel/errors.ts';
import { giveDiscountUseBack, takeDiscountUse } from '../shop/discounts.ts';
import { releaseStock } from '../shop/stock.ts';
import {
  type AdminOrderCommand,
  decide,
  holdsDiscountUse,
  type OrderEvent,
  type OrderMailKind,
  type OrderState,
} from './domain.ts';
import { grantDownloads, revokeDownloads } from './downloads.ts';
import { getOrder } from './lists.ts';
import type { OrderView } from './presenters.ts';
import { ConcurrencyError, commitEvents, loadStream, stateOf } from './store.ts';

/** Tries of a change (or a placing) that lost a race before it refuses with Conflict. */
export const MAX_ATTEMPTS = 3;

/** Decides the events of one change from the order's current state (may do I/O in the transaction). */
export type OrderDecision = (
  trx: Knex.Transaction,
  state: OrderState,
) => Promise<OrderEvent[]> | OrderEvent[];

/**
 * Runs one change against an order: load, decide, append with the expected version, project,
 * and the change's consequences (stock, mails) in the same transaction. A concurrent writer
 * makes the append fail; the change is then decided again on the new state.
 */
export async function changeOrder(
  db: Db,
  orderId: number,
  decision: OrderDecision,
  metadata: Record<string, unknown> = {},
  lock?: string,
): Promise<OrderState> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(async (trx) => {
        if (lock) await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?), ?)', [lock, orderId]);
        const state = stateOf(await loadStream(trx, orderId));
        const events = await decision(trx, state);
        const next = await commitEvents(trx, orderId, state, events, metadata);
        await applyConsequences(trx, orderId, state, next, events);
        return next;
      });
    } catch (error) {
      if (error instanceof ConcurrencyError && attempt < MAX_ATTEMPTS) continue;
      if (error instanceof ConcurrencyError)
        throw new Conflict('The order was changed by someone else at the same time. Please try again.');
      throw error;
    }
  }
}

/** What the committed events mean outside the stream: stock back, mails to the customer. */
export async function applyConsequences(
  trx: Knex.Transaction,
  orderId: number,
  before: OrderState,
  after: OrderState,
  events: OrderEvent[],
): Promise<void> {
  if (after.stockReleased && !before.stockReleased) await releaseStock(trx, after.placed?.items ?? []);
  const paid = (state: OrderState) => state.paymentStatus !== 'unpaid' && !state.refundNeeded;
  const ended = (state: OrderState) => state.paymentStatus === 'refunded' || state.status === 'cancelled';
  if (paid(after) && !paid(before) && !ended(after) && (await grantDownloads(trx, orderId, after)) > 0)
    await writeOutbox(
      trx,
      'orders.send-mail',
      { orderId, kind: 'downloads', key: 'downloads' },
      `order-${orderId}-downloads`,
    );
  if (ended(after) && !ended(before)) await revokeDownloads(trx, orderId);
  if (holdsDiscountUse(before) && !holdsDiscountUse(after)) await giveDiscountUseBack(trx, orderId);
  if (!holdsDiscountUse(before) && holdsDiscountUse(after) && after.placed?.discount)
    await takeDiscountUse(trx, orderId, after.placed.discount, after.placed.email);
  let version = before.version;
  for (const event of events) {
    version++;
    const mail = customerMailOf(event, version);
    if (mail)
      await writeOutbox(trx, 'orders.send-mail', { orderId, ...mail }, `order-${orderId}-${mail.key}`);
  }
}

/**
 * The mail an order's event sends its customer, if any, keyed once per order (a refund by its
 * event's version, as an order may have several). The downloads mail follows the order's grants
 * instead (applyConsequences) and the confirmation its placing.
 */
export function customerMailOf(
  event: OrderEvent,
  version: number,
): { kind: OrderMailKind; key: string } | null {
  if (event.type === 'PaymentSucceeded' && event.data.method !== 'free')
    return { kind: 'payment-received', key: 'payment-received' };
  if (event.type === 'OrderExpired') return { kind: 'order-expired', key: 'order-expired' };
  if (event.type === 'RefundIssued') return { kind: 'refund-issued', key: `refund-${version}` };
  if (event.type === 'OrderShipped') return { kind: 'order-shipped', key: 'order-shipped' };
  if (event.type === 'OrderCancelled') return { kind: 'order-cancelled', key: 'order-cancelled' };
  return null;
}

/** An admin's command on an order: the order service decides what is allowed and says why not. */
export async function executeOrderCommand(
  db: Db,
  orderId: number,
  command: AdminOrderCommand,
  metadata: Record<string, unknown> = {},
): Promise<OrderView> {
  await changeOrder(db, orderId, (_trx, state) => decide(state, command), metadata);
  const order = await getOrder(db, orderId);
  if (!order) throw new NotFound('Order not found');
  return order;
}
