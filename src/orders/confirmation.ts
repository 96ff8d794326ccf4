import type { Db } from '../db/knex.ts';
import type { Mail, Mailer } from '../jobs/mailer.ts';
import { formatPrice } from '../shop/price.ts';
import { decide, type OrderPlacedData } from './domain.ts';
import { ConcurrencyError, commitEvents, loadStream, stateOf } from './store.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** placedAt (the OrderPlaced event's time) keeps the key unique across installations and databases. */
export function confirmationMail(orderId: number, order: OrderPlacedData, placedAt: Date): Mail {
  const name = [order.firstName, order.lastName].filter(Boolean).join(' ');
  const lines = order.items.map(
    (i) =>
      `${i.quantity} × ${i.productName} — ${formatPrice(i.priceAtTime)} each — ${formatPrice(i.quantity * i.priceAtTime)}`,
  );
  const address = [order.address, `${order.postalCode} ${order.city}`, order.country];
  const text = [
    `Hello ${name},`,
    '',
    `Thank you for your order #${orderId}.`,
    '',
    ...lines,
    '',
    `Total: ${formatPrice(order.totalAmount)}`,
    '',
    'Shipping to:',
    name,
    ...address,
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(name)},</p>
<p>Thank you for your order <strong>#${orderId}</strong>.</p>
<table>${order.items
    .map(
      (i) =>
        `<tr><td>${i.quantity} × ${escapeHtml(i.productName)}</td><td>${formatPrice(i.priceAtTime)} each</td><td>${formatPrice(i.quantity * i.priceAtTime)}</td></tr>`,
    )
    .join('')}</table>
<p><strong>Total: ${formatPrice(order.totalAmount)}</strong></p>
<p>Shipping to:<br>${[name, ...address].map(escapeHtml).join('<br>')}</p>`;
  return {
    to: order.email,
    subject: `Order #${orderId} confirmed`,
    text,
    html,
    idempotencyKey: `order-${orderId}-confirmation.${placedAt.getTime()}`,
  };
}

/**
 * Sends the confirmation of one order exactly once, as far as SMTP allows:
 * - An advisory lock per order serializes concurrent runs of the job (a redelivered or
 *   duplicated job waits, then finds ConfirmationEmailSent and sends nothing).
 * - ConfirmationEmailSent is appended in the same transaction, right after the SMTP server
 *   accepted the message (its 250 reply to DATA). A worker killed before that reply never had
 *   the message accepted: its transaction rolls back, the job is retried and sends it once.
 * - Only a crash in the instant between the server's 250 and our commit can send it again;
 *   that attempt carries the same Message-ID (idempotencyKey), so receivers that deduplicate
 *   on it (most mailbox providers do) still show one mail.
 */
export async function sendOrderConfirmation(
  db: Db,
  mailer: Mailer,
  orderId: number,
): Promise<'sent' | 'already-sent' | 'no-order'> {
  try {
    return await db.transaction(async (trx) => {
      await trx.raw("SELECT pg_advisory_xact_lock(hashtext('order-confirmation'), ?)", [orderId]);
      const stream = await loadStream(trx, orderId);
      const state = stateOf(stream);
      if (!state.placed) return 'no-order';
      if (state.confirmationSent) return 'already-sent';
      await mailer.send(confirmationMail(orderId, state.placed, stream[0].createdAt));
      const events = decide(state, { type: 'RecordConfirmationSent', to: state.placed.email });
      await commitEvents(trx, orderId, state, events, { by: 'worker' });
      return 'sent';
    });
  } catch (error) {
    // Someone else recorded it between our read and our append: it is sent.
    if (error instanceof ConcurrencyError) return 'already-sent';
    throw error;
  }
}
