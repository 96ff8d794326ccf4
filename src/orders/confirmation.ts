import type { Db } from '../db/knex.ts';
import type { Mail, Mailer } from '../jobs/mailer.ts';
import { forEachOrder } from '../kernel/each-order.ts';
import { escapeHtml } from '../kernel/escape.ts';
import { countryName } from '../shop/countries.ts';
import { lineName } from '../shop/line-name.ts';
import { formatPrice } from '../shop/price.ts';
import { taxLabel } from '../shop/tax-rules.ts';
import {
  decide,
  type OrderCommand,
  type OrderMailKind,
  type OrderPlacedData,
  type OrderState,
  orderCurrency,
} from './domain.ts';
import { renderInvoice, type Seller, sellerDetails } from './invoices.ts';
import { appendRecordsNow, loadLockedStreams, loadStream, type StoredEvent, stateOf } from './store.ts';

/** The order's tax line as mails and invoices say it ("Tax (VAT 19%): €3.80"); null without tax. */
export function orderTaxLine(order: OrderPlacedData, price: (cents: number) => string): string | null {
  if (!order.taxAmount) return null;
  const label = taxLabel(order.items);
  return `${order.taxIncluded ? 'Including tax' : 'Tax'}${label ? ` (${label})` : ''}: ${price(order.taxAmount)}`;
}

/** placedAt (the OrderPlaced event's time) keeps the key unique across installations and databases. */
export function confirmationMail(orderId: number, order: OrderPlacedData, placedAt: Date): Mail {
  const price = (cents: number) => formatPrice(cents, orderCurrency({ placed: order }));
  const name = [order.firstName, order.lastName].filter(Boolean).join(' ');
  const lines = order.items.map(
    (i) =>
      `${i.quantity} × ${lineName(i.productName, i.variant)} — ${price(i.priceAtTime)} each — ${price(i.quantity * i.priceAtTime)}`,
  );
  // A digital-only order has no address (checkout does not ask for one): nothing ships.
  const shipping =
    order.address && order.shippingCost !== undefined
      ? `Shipping (${order.shippingMethod}): ${order.shippingCost ? price(order.shippingCost) : 'free'}`
      : null;
  const discount = order.discount
    ? `Discount (${order.discount.code}): −${price(order.discount.amount)}`
    : null;
  const tax = orderTaxLine(order, price);
  const address = order.address
    ? [order.address, `${order.postalCode} ${order.city}`, countryName(order.country)]
    : [];
  const text = [
    `Hello ${name},`,
    '',
    `Thank you for your order #${orderId}.`,
    '',
    ...lines,
    '',
    ...(shipping ? [shipping] : []),
    ...(discount ? [discount] : []),
    ...(tax && !order.taxIncluded ? [tax] : []),
    `Total: ${price(order.totalAmount)}`,
    ...(tax && order.taxIncluded ? [tax] : []),
    ...(address.length ? ['', 'Shipping to:', name, ...address] : []),
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(name)},</p>
<p>Thank you for your order <strong>#${orderId}</strong>.</p>
<table>${order.items
    .map(
      (i) =>
        `<tr><td>${i.quantity} × ${escapeHtml(lineName(i.productName, i.variant))}</td><td>${price(i.priceAtTime)} each</td><td>${price(i.quantity * i.priceAtTime)}</td></tr>`,
    )
    .join('')}</table>
${[shipping, discount, tax && !order.taxIncluded ? tax : null]
  .map((line) => (line ? `<p>${escapeHtml(line)}</p>` : ''))
  .join(
    '',
  )}<p><strong>Total: ${price(order.totalAmount)}</strong></p>${tax && order.taxIncluded ? `<p>${escapeHtml(tax)}</p>` : ''}${
    address.length ? `\n<p>Shipping to:<br>${[name, ...address].map(escapeHtml).join('<br>')}</p>` : ''
  }`;
  return {
    to: order.email,
    subject: `Order #${orderId} confirmed`,
    text,
    html,
    idempotencyKey: `order-${orderId}-confirmation.${placedAt.getTime()}`,
  };
}

/** How the customer pays an unpaid order, as the confirmation says it. */
export type PaymentGuidance =
  | { mode: 'stripe'; orderUrl: string }
  | { mode: 'manual'; instructions: string; orderUrl: string };

/** The confirmation of an order still to be paid: the pay link (Stripe) or the writer's instructions. */
export function confirmationWithPayment(mail: Mail, orderId: number, guidance: PaymentGuidance): Mail {
  // After the order (greeting, lines, total): the customer reads what they owe, then how to pay it.
  if (guidance.mode === 'stripe') {
    const text = `Your order is reserved for you until you pay. Complete your payment here:\n${guidance.orderUrl}`;
    return {
      ...mail,
      subject: `Order #${orderId} received — complete your payment`,
      text: `${mail.text}\n\n${text}`,
      html: `${mail.html ?? ''}<p>Your order is reserved for you until you pay. <a href="${escapeHtml(guidance.orderUrl)}">Complete your payment</a>.</p>`,
    };
  }
  const instructions = guidance.instructions.trim() || 'We will contact you about the payment.';
  return {
    ...mail,
    text: `${mail.text}\n\nHow to pay:\n${instructions}\n\nYour order: ${guidance.orderUrl}`,
    html: `${mail.html ?? ''}<p><strong>How to pay</strong></p><p>${escapeHtml(instructions).replace(/\n/g, '<br>')}</p><p><a href="${escapeHtml(guidance.orderUrl)}">Your order</a></p>`,
  };
}

/** What a mail job did for one order. */
type MailOutcome = 'sent' | 'already-sent' | 'no-order';

type ComposeMail = (
  state: OrderState,
  stream: StoredEvent[],
) => Promise<{ mail: Mail; record: OrderCommand } | 'already-sent'>;

/** Records a mail that went out: at once (recordSent), or with others of its batch (BatchRecords). */
type RecordMail = (orderId: number, state: OrderState, record: OrderCommand) => void | Promise<void>;

/**
 * Sends one mail of an order exactly once, as far as SMTP allows:
 * - An advisory lock per order and mail, taken with the stream's read (withMailLocks), serializes
 *   concurrent runs of the job (a redelivered or duplicated job waits, then finds the mail
 *   recorded and sends nothing).
 * - The mail's event is appended and committed in a statement without a transaction, on another
 *   connection, after the SMTP server accepted the message (its 250 reply to DATA) and while the
 *   lock is still held: at once for a single mail, within RECORD_WINDOW_MS for a batch's (its
 *   mails accepted meanwhile share the statement). A worker killed before that reply never had
 *   the message accepted: nothing was recorded, the job is retried and sends it once.
 * - Only a crash between the server's 250 and that commit can send it again; that attempt
 *   carries the same Message-ID (idempotencyKey), so receivers that deduplicate on it (most
 *   mailbox providers do) still show one mail.
 */
async function sendOnce(
  mailer: Mailer,
  orderId: number,
  stream: StoredEvent[],
  compose: ComposeMail,
  recordMail: RecordMail,
): Promise<MailOutcome> {
  const state = stateOf(stream);
  if (!state.placed) return 'no-order';
  const composed = await compose(state, stream);
  if (composed === 'already-sent') return 'already-sent';
  await mailer.send(composed.mail);
  await recordMail(orderId, state, composed.record);
  return 'sent';
}

/**
 * Runs work in a transaction that holds the advisory lock (lockName, order) of each order, with
 * the orders' streams read once each lock is granted: one round trip for a whole batch. The locks
 * are taken in ascending order, so two batches that share orders wait for each other rather than
 * deadlock. The transaction writes nothing: it ends, and the locks with it, when work has.
 */
function withMailLocks<T>(
  db: Db,
  lockName: string,
  orderIds: number[],
  work: (streamOf: (orderId: number) => StoredEvent[]) => Promise<T>,
): Promise<T> {
  return db.transaction(async (locks) => {
    const streams = await loadLockedStreams(locks, lockName, orderIds);
    return work((orderId) => streams.get(orderId) ?? []);
  });
}

const RECORD_ATTEMPTS = 5;
const RECORD_METADATA = { by: 'worker' };

/** The record's one event, as decided on the order's state (a mail recorded before is refused). */
function recordEvent(state: OrderState, record: OrderCommand) {
  const events = decide(state, record);
  if (events.length !== 1) throw new Error(`a mail's record is one event: ${record.type}`);
  return events[0];
}

/**
 * Records a mail that went out, committed at once. Another writer's event meanwhile (a payment, a
 * refund: they do not take this mail's lock) moves the order's version; the record is then decided
 * again on the stream as it now is.
 */
async function recordSent(db: Db, orderId: number, state: OrderState, record: OrderCommand): Promise<void> {
  let current = state;
  for (let attempt = 1; ; attempt++) {
    const event = recordEvent(current, record);
    const lost = await appendRecordsNow(db, [{ orderId, state: current, event }], RECORD_METADATA);
    if (lost.length === 0) return;
    if (attempt === RECORD_ATTEMPTS)
      throw new Error(`order ${orderId} changed concurrently ${attempt} times while its mail was recorded`);
    current = stateOf(await loadStream(db, orderId));
  }
}

/**
 * How long a batch's record may wait for the next mails' (a product drop's confirmations go out a
 * few milliseconds apart): one statement then records them all, where one each cost PostgreSQL
 * more than the order's own checkout statements did. It bounds what a crash can send again.
 */
const RECORD_WINDOW_MS = 100;

/**
 * The records of a batch's mails, each written within RECORD_WINDOW_MS of its mail's acceptance
 * together with those accepted meanwhile, and all of them by end(), which the batch awaits before
 * its locks are let go. An order left out (its version moved) is recorded again on its own.
 */
class BatchRecords {
  private waiting: { orderId: number; state: OrderState; record: OrderCommand }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private written: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  readonly add: RecordMail = (orderId, state, record) => {
    this.waiting.push({ orderId, state, record });
    this.timer ??= setTimeout(() => void this.write(), RECORD_WINDOW_MS);
  };

  private write(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length)
      this.written = this.written
        .then(() => this.record(batch))
        .catch((error: unknown) => {
          this.failure ??= { error };
        });
    return this.written;
  }

  private async record(batch: typeof this.waiting): Promise<void> {
    // One record refused by its order's state keeps none of the others from being written.
    const refused: unknown[] = [];
    const decided = batch.flatMap(({ orderId, state, record }) => {
      try {
        return [{ orderId, state, event: recordEvent(state, record) }];
      } catch (error) {
        refused.push(error);
        return [];
      }
    });
    const lost = new Set(await appendRecordsNow(this.db, decided, RECORD_METADATA));
    for (const { orderId, record } of batch.filter((b) => lost.has(b.orderId)))
      await recordSent(this.db, orderId, stateOf(await loadStream(this.db, orderId)), record);
    if (refused.length) throw refused[0];
  }

  /** Writes what waits; throws when any record failed (the job's retry then sends those mails). */
  async end(): Promise<void> {
    await this.write();
    if (this.failure) throw this.failure.error;
  }
}

const CONFIRMATION_LOCK = 'order-confirmation';

/** The confirmation of an order, or 'already-sent' when it went out before (or has nobody to go to). */
function composeConfirmation(
  orderId: number,
  guidance: (state: OrderState) => Promise<PaymentGuidance | null>,
): ComposeMail {
  return async (state, stream) => {
    const placed = state.placed;
    // An erased customer has no address to mail any more.
    if (!placed || state.confirmationSent || state.customerErased) return 'already-sent';
    const plain = confirmationMail(orderId, placed, stream[0].createdAt);
    const how = state.paymentStatus === 'unpaid' && state.status === 'pending' ? await guidance(state) : null;
    return {
      mail: how ? confirmationWithPayment(plain, orderId, how) : plain,
      record: { type: 'RecordConfirmationSent', to: placed.email },
    };
  };
}

export async function sendOrderConfirmation(
  db: Db,
  mailer: Mailer,
  orderId: number,
  guidance: (state: OrderState) => Promise<PaymentGuidance | null> = async () => null,
): Promise<MailOutcome> {
  return withMailLocks(db, CONFIRMATION_LOCK, [orderId], (streamOf) =>
    sendOnce(mailer, orderId, streamOf(orderId), composeConfirmation(orderId, guidance), (...r) =>
      recordSent(db, ...r),
    ),
  );
}

/**
 * The confirmations of several orders (one relay's worth), under one transaction's locks and one
 * read of their streams, then sent one after another, their records written together (BatchRecords)
 * before the locks are let go: the lock transaction and a record's statement hold a connection
 * each, and a payment guidance may need a third (the orders queue runs four jobs at once). Every
 * order is tried; when any failed, the job fails after the others were sent, and its retry finds
 * those already sent.
 */
export async function sendOrderConfirmations(
  db: Db,
  mailer: Mailer,
  orderIds: number[],
  guidance: (orderId: number, state: OrderState) => Promise<PaymentGuidance | null>,
): Promise<Record<MailOutcome, number>> {
  const outcomes = { sent: 0, 'already-sent': 0, 'no-order': 0 };
  // Each order once: its stream is read once, so a second turn would not see the first's record.
  const once = [...new Set(orderIds)];
  const sent = await withMailLocks(db, CONFIRMATION_LOCK, once, async (streamOf) => {
    const records = new BatchRecords(db);
    try {
      return await forEachOrder(once, 'confirmations', (orderId) =>
        sendOnce(
          mailer,
          orderId,
          streamOf(orderId),
          composeConfirmation(orderId, (state) => guidance(orderId, state)),
          records.add,
        ),
      );
    } finally {
      await records.end();
    }
  });
  for (const outcome of sent) outcomes[outcome]++;
  return outcomes;
}

/** A card payment that came after the order ended (cancelled, or expired with its items gone): the money goes back. */
function paidAfterEnd(stream: StoredEvent[]): boolean {
  return stream.some((e) => e.type === 'PaymentSucceeded' && e.data.afterExpiry === 'refund-needed');
}

const MAIL_SUBJECTS: Record<OrderMailKind, (orderId: number, stream: StoredEvent[]) => string> = {
  'payment-received': (id, stream) =>
    paidAfterEnd(stream)
      ? `Payment received for order #${id}: it will be refunded`
      : `Payment received for order #${id}`,
  'order-expired': (id) => `Order #${id} expired`,
  'refund-issued': (id) => `Refund issued for order #${id}`,
  downloads: (id) => `Your downloads for order #${id}`,
  'order-shipped': (id) => `Your order has shipped (order #${id})`,
  'order-cancelled': (id) => `Order #${id} cancelled`,
};

/** Each mail says what was true when its event happened, however late the worker sends it. */
function mailText(
  kind: OrderMailKind,
  orderId: number,
  state: OrderState,
  stream: StoredEvent[],
  refund: { amount: number; tax: number },
): string {
  const price = (cents: number) => formatPrice(cents, orderCurrency(state));
  const cancelled = stream.find((e) => e.type === 'OrderCancelled');
  const cancellation = cancelled?.type === 'OrderCancelled' ? cancelled.data : null;
  switch (kind) {
    case 'payment-received':
      // An order without an address is all downloads: nothing ships, its links have their own mail.
      return paidAfterEnd(stream)
        ? `We received your payment of ${formatPrice(state.paidAmount, orderCurrency(state))} for your order #${orderId}, but ${
            cancellation
              ? `the order had been cancelled${cancellation.reason ? ` (${cancellation.reason})` : ''}`
              : 'the order had expired and its items were no longer available'
          }, so nothing will be sent. We will refund your payment in full and mail you when we have; you need to do nothing.`
        : `Payment received: ${price(state.paidAmount)}${state.placed?.taxAmount ? ` (of which tax ${price(state.placed.taxAmount)})` : ''} for your order #${orderId}. Thank you! ${state.placed?.address ? 'We will let you know when it ships.' : 'Your download links come in a separate mail.'}`;
    case 'order-expired':
      return `Your order #${orderId} was not paid within the time we could hold it, so it has expired and nothing will be charged. You are welcome to order again.`;
    case 'refund-issued':
      return `We have refunded ${price(refund.amount)}${refund.tax ? ` (of which tax ${price(refund.tax)})` : ''} of your order #${orderId}. It can take a few days to reach your account.`;
    case 'downloads':
      return `Your downloads for order #${orderId} are ready:`;
    case 'order-cancelled': {
      // A card payment is refunded before its order can be cancelled: the refund's own mail said so.
      const paidBefore = stream.some(
        (e) => e.type === 'PaymentSucceeded' && cancelled && e.version < cancelled.version,
      );
      const payment = cancellation?.refunded
        ? ' The payment you made will be given back to you.'
        : paidBefore
          ? ''
          : ' Nothing will be charged.';
      return `Your order #${orderId} has been cancelled${cancellation?.reason ? `. Reason: ${cancellation.reason}` : ''}.${payment}`;
    }
    case 'order-shipped':
      return `Your order #${orderId} has shipped${state.carrier ? ` with ${state.carrier}` : ''}. Tracking number: ${state.trackingNumber ?? ''}.${state.trackingUrl ? ` Follow it here: ${state.trackingUrl}` : ''}`;
  }
}

async function invoiceAttachment(orderId: number, stream: StoredEvent[], seller: Seller) {
  const invoice = await renderInvoice(orderId, stream, seller);
  return { filename: `invoice-${invoice.number}.pdf`, content: invoice.pdf, contentType: 'application/pdf' };
}

/** A mail's list of links (the downloads): each with its label, after the mail's sentence. */
export type MailLinks = { label: string; url: string; note: string }[];

/**
 * A payment, expiry, refund or downloads mail of an order, once per key (a refund's key names its
 * event; each re-send of the downloads has its own).
 */
export async function sendOrderMail(
  db: Db,
  mailer: Mailer,
  job: { orderId: number; kind: OrderMailKind; key: string },
  orderUrl: string,
  links: MailLinks = [],
): Promise<MailOutcome> {
  const { orderId, kind, key } = job;
  const compose: ComposeMail = async (state, stream) => {
    const placed = state.placed;
    if (!placed || state.mailsSent.includes(key) || state.customerErased) return 'already-sent';
    const refund = stream.find((e) => `refund-${e.version}` === key && e.type === 'RefundIssued');
    const refunded =
      refund?.type === 'RefundIssued'
        ? { amount: refund.data.amount, tax: refund.data.tax ?? 0 }
        : { amount: 0, tax: 0 };
    const name = [placed.firstName, placed.lastName].filter(Boolean).join(' ');
    const body = mailText(kind, orderId, state, stream, refunded);
    // The payment's invoice goes with its mail, drawn from the same stream the mail is about.
    const attachments =
      kind === 'payment-received' && state.invoiceNumber
        ? [await invoiceAttachment(orderId, stream, await sellerDetails(db))]
        : undefined;
    const linkText = links.map((l) => `\n${l.label} (${l.note}): ${l.url}`).join('');
    const linkHtml = links.length
      ? `<ul>${links.map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.label)}</a> (${escapeHtml(l.note)})</li>`).join('')}</ul>`
      : '';
    return {
      mail: {
        to: placed.email,
        subject: MAIL_SUBJECTS[kind](orderId, stream),
        text: `Hello ${name},\n\n${body}${linkText ? `\n${linkText}` : ''}\n\nYour order: ${orderUrl}`,
        html: `<p>Hello ${escapeHtml(name)},</p><p>${escapeHtml(body)}</p>${linkHtml}<p><a href="${escapeHtml(orderUrl)}">Your order</a></p>`,
        idempotencyKey: `order-${orderId}-${key}.${stream[0].createdAt.getTime()}`,
        attachments,
      },
      record: { type: 'RecordMailSent', kind, key, to: placed.email },
    };
  };
  return withMailLocks(db, `order-mail-${key}`, [orderId], (streamOf) =>
    sendOnce(mailer, orderId, streamOf(orderId), compose, (...r) => recordSent(db, ...r)),
  );
}
