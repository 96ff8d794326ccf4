import type { Db } from '../db/knex.ts';
import type { Mail, Mailer } from '../jobs/mailer.ts';
import { formatPrice } from '../shop/price.ts';
import { decide, type OrderPlacedData } from './domain.ts';
import { ConcurrencyError, commitEvents, loadStream, stateOf } from './store.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function confirmationMail(orderId: number, order: OrderPlacedData): Mail {
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
  return { to: order.email, subject: `Order #${orderId} confirmed`, text, html };
}

/**
 * Sends the confirmation of one order at most once. An advisory lock per order serializes
 * concurrent runs of the job; ConfirmationEmailSent, appended with the expected version, is
 * the record that it went out, checked before sending.
 */
export async function sendOrderConfirmation(
  db: Db,
  mailer: Mailer,
  orderId: number,
): Promise<'sent' | 'already-sent' | 'no-order'> {
  try {
    return await db.transaction(async (trx) => {
      await trx.raw("SELECT pg_advisory_xact_lock(hashtext('order-confirmation'), ?)", [orderId]);
      const state = stateOf(await loadStream(trx, orderId));
      if (!state.placed) return 'no-order';
      if (state.confirmationSent) return 'already-sent';
      await mailer.send(confirmationMail(orderId, state.placed));
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
