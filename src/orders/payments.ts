import type Stripe from 'stripe';
import type { Db } from '../db/knex.ts';
import { forEachOrder } from '../kernel/each-order.ts';
import { AppError, Conflict, NotFound, UpstreamFailed } from '../kernel/errors.ts';
import type { CoreServices } from '../kernel/services.ts';
import { lineName } from '../shop/line-name.ts';
import { formatPrice } from '../shop/price.ts';
import { reserveStockAgain } from '../shop/stock.ts';
import { taxLabel } from '../shop/tax-rules.ts';
import { orderLink } from './access-key.ts';
import { changeOrder } from './changes.ts';
import type { PaymentGuidance } from './confirmation.ts';
import {
  cardPaymentMismatch,
  decide,
  evolve,
  type OrderEvent,
  type OrderState,
  orderCurrency,
  stripeTaxMismatch,
} from './domain.ts';
import { isAwaitingPayment } from './payment-labels.ts';
import { type PaymentSettings, paymentSettings } from './payment-settings.ts';
import { loadStream, stateOf } from './store.ts';

/** Payment changes (webhooks, refunds) of one order run one at a time: a refund waits on Stripe inside it. */
const PAYMENT_LOCK = 'order-payment';

/** Stripe keeps a Checkout Session open between 30 minutes and 24 hours. */
const SESSION_MIN_MS = 31 * 60_000;
const SESSION_MAX_MS = 23.5 * 60 * 60_000;

/** Stripe's error in words for the admin, or a plain network failure. */
function stripeFailure(error: unknown, doing: string): AppError {
  const e = error as { type?: string; message?: string; statusCode?: number };
  if (e.type === 'StripeInvalidRequestError' || e.type === 'StripeCardError')
    return new Conflict(`Stripe refused ${doing}: ${e.message ?? 'no reason given'}`);
  return new UpstreamFailed(`Could not reach Stripe to ${doing}. Nothing was changed; please try again.`);
}

/**
 * The URL of a Stripe payment page for an unpaid order: its open Checkout Session, or a new one
 * for exactly its lines (names, cents, quantities from the order itself, never from the client).
 */
export async function stripePaymentUrl(services: CoreServices, orderId: number): Promise<string> {
  const stripe = services.stripe;
  if (!stripe) throw new Conflict('Card payments are not set up on this shop.');
  const state = stateOf(await loadStream(services.db, orderId));
  if (!state.placed) throw new NotFound('Order not found');
  if (!isAwaitingPayment(state)) throw new Conflict('This order is not waiting for payment.');
  if (state.checkoutSessionId) {
    try {
      const open = await stripe.checkout.sessions.retrieve(state.checkoutSessionId);
      if (open.status === 'open' && open.url) return open.url;
    } catch (error) {
      services.log.warn({ orderId, err: (error as Error).message }, 'could not read the Checkout Session');
    }
  }
  const placed = state.placed;
  const link = await orderLink(services.db, services.publicUrl, orderId);
  const holdEnds = placed.holdUntil ? Date.parse(placed.holdUntil) : Date.now() + SESSION_MAX_MS;
  const expiresAt = Math.min(Math.max(holdEnds, Date.now() + SESSION_MIN_MS), Date.now() + SESSION_MAX_MS);
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: stripeLines(orderId, state),
        client_reference_id: String(orderId),
        // Erased with the customer's account: Stripe then asks the payer for one.
        customer_email: placed.email || undefined,
        expires_at: Math.floor(expiresAt / 1000),
        success_url: `${link}&payment=done`,
        cancel_url: `${link}&payment=cancelled`,
        metadata: { orderId: String(orderId) },
        payment_intent_data: { metadata: { orderId: String(orderId) } },
        // Stripe Tax adds the tax for the address the customer gives on its page.
        ...(placed.stripeTax ? { automatic_tax: { enabled: true } } : {}),
      },
      // The same order at the same version asks once, however often the customer clicks.
      { idempotencyKey: `checkout-${orderId}-${state.version}` },
    );
  } catch (error) {
    services.log.warn({ orderId, err: (error as Error).message }, 'could not create a Checkout Session');
    throw stripeFailure(error, 'to start the payment');
  }
  if (!session.url) throw new UpstreamFailed('Stripe answered without a payment page.');
  await changeOrder(
    services.db,
    orderId,
    (_trx, current) =>
      isAwaitingPayment(current)
        ? decide(current, {
            type: 'RequestPayment',
            checkoutSessionId: session.id,
            expiresAt: new Date(expiresAt).toISOString(),
          })
        : [],
    { by: 'checkout' },
  );
  return session.url;
}

/**
 * The Checkout Session's lines: Stripe charges their sum, so the shipping is one of them, and the
 * tax as Penstand computed it (prices entered without tax: a line of its own; with tax: a part of
 * each line's amount already). A discount cannot be a negative line: a discounted order is one
 * line of its total instead.
 */
function stripeLines(orderId: number, state: OrderState): Stripe.Checkout.SessionCreateParams.LineItem[] {
  const placed = state.placed;
  if (!placed) return [];
  // Stripe Tax: whether the prices have the tax in them or it comes on top.
  const taxBehavior = placed.stripeTax
    ? { tax_behavior: placed.taxIncluded ? ('inclusive' as const) : ('exclusive' as const) }
    : {};
  if (placed.discount)
    return [
      {
        quantity: 1,
        price_data: {
          currency: orderCurrency(state),
          unit_amount: placed.totalAmount,
          ...taxBehavior,
          product_data: {
            name: `Order #${orderId} (discount code ${placed.discount.code}: −${formatPrice(placed.discount.amount, orderCurrency(state))})`,
          },
        },
      },
    ];
  return [
    ...placed.items.map((line) => ({
      quantity: line.quantity,
      price_data: {
        currency: orderCurrency(state),
        unit_amount: line.priceAtTime,
        ...taxBehavior,
        product_data: { name: lineName(line.productName, line.variant) },
      },
    })),
    ...(placed.shippingCost
      ? [
          {
            quantity: 1,
            price_data: {
              currency: orderCurrency(state),
              unit_amount: placed.shippingCost,
              ...taxBehavior,
              product_data: { name: `Shipping: ${placed.shippingMethod}` },
            },
          },
        ]
      : []),
    ...(placed.taxAmount && !placed.taxIncluded
      ? [
          {
            quantity: 1,
            price_data: {
              currency: orderCurrency(state),
              unit_amount: placed.taxAmount,
              product_data: { name: `Tax: ${taxLabel(placed.items)}` },
            },
          },
        ]
      : []),
  ];
}

/** The admin's 'Mark as paid' (a bank transfer, cash): the order's full total, with a reference. */
export async function markOrderPaid(
  db: Db,
  orderId: number,
  reference: string | null,
  metadata: Record<string, unknown>,
): Promise<OrderState> {
  return changeOrder(
    db,
    orderId,
    async (trx, state) =>
      decide(state, {
        type: 'RecordPayment',
        method: 'manual',
        reference,
        stockReserved:
          state.status === 'expired' ? await reserveStockAgain(trx, state.placed?.items ?? []) : undefined,
      }),
    metadata,
    PAYMENT_LOCK,
  );
}

/**
 * A full or partial refund. Decided on the order's own payment first, then (card payments)
 * made through Stripe's Refunds API while this order's payment lock is held, so two refunds
 * racing are decided one after the other and can never exceed what was paid.
 */
export async function refundOrder(
  services: CoreServices,
  orderId: number,
  input: { amount: number; restock: boolean; reason?: string },
  metadata: Record<string, unknown>,
): Promise<OrderState> {
  // Kept across changeOrder's attempts: a write without the payment lock (a mail recorded) only
  // makes the append retry, and the retry must record this refund, not ask Stripe for another.
  let made: { refundId: string; refundedBefore: number } | null = null;
  return changeOrder(
    services.db,
    orderId,
    async (_trx, state) => {
      const command = { type: 'IssueRefund' as const, ...input, refundId: null as string | null };
      if (made) {
        // A refund recorded between the attempts took the payment lock first: Stripe's own
        // report (charge.refunded, the charge's refunded total) records this one too.
        if (state.refundedAmount !== made.refundedBefore) return [];
        return decide(state, { ...command, refundId: made.refundId });
      }
      decide(state, command); // refuses before any money moves
      if (state.paymentMethod === 'stripe') {
        if (!services.stripe || !state.paymentReference)
          throw new Conflict('This card payment can only be refunded with Stripe configured.');
        try {
          const refund = await services.stripe.refunds.create(
            {
              payment_intent: state.paymentReference,
              amount: input.amount,
              metadata: { orderId: String(orderId) },
            },
            // Names this refund by what was refunded before it: asked again after a failure we
            // never heard back from, Stripe answers with the same refund instead of a second one.
            { idempotencyKey: `refund-${orderId}-${state.refundedAmount}-${input.amount}` },
          );
          made = { refundId: refund.id, refundedBefore: state.refundedAmount };
          command.refundId = refund.id;
        } catch (error) {
          services.log.warn({ orderId, err: (error as Error).message }, 'Stripe refund failed');
          throw stripeFailure(error, 'the refund');
        }
      }
      return decide(state, command);
    },
    metadata,
    PAYMENT_LOCK,
  );
}

/** What expiring and cancelling need: the database, and Stripe to close the payment page. */
type OrderEnding = Pick<CoreServices, 'db' | 'stripe' | 'log'>;

/**
 * Closes the Stripe payment page of an order that can no longer be paid there (expired,
 * cancelled). A session already completed or expired is Stripe's 400: there is nothing to close.
 * Stripe out of reach is only logged: the page closes by itself at its expires_at, and a payment
 * made on it meanwhile is still recorded (re-opening the order, or flagging it for a refund).
 */
async function closeCheckoutSession(
  services: OrderEnding,
  orderId: number,
  state: OrderState,
): Promise<void> {
  if (!services.stripe || !state.checkoutSessionId || state.paymentStatus !== 'unpaid') return;
  try {
    await services.stripe.checkout.sessions.expire(state.checkoutSessionId);
  } catch (error) {
    const e = error as { type?: string; message?: string };
    if (e.type === 'StripeInvalidRequestError')
      services.log.info({ orderId, err: e.message }, 'Checkout Session already closed');
    else services.log.warn({ orderId, err: e.message }, 'could not expire the Checkout Session');
  }
}

/** Ends an unpaid order's hold once its deadline has passed; anything else is left as it is. */
export async function expireOrder(
  services: OrderEnding,
  orderId: number,
  now = new Date(),
): Promise<boolean> {
  const state = await changeOrder(
    services.db,
    orderId,
    (_trx, current): OrderEvent[] => {
      const due =
        isAwaitingPayment(current) &&
        current.placed?.holdUntil &&
        Date.parse(current.placed.holdUntil) <= now.getTime();
      return due ? decide(current, { type: 'ExpireOrder', now }) : [];
    },
    { by: 'expiry' },
    PAYMENT_LOCK,
  );
  if (state.status !== 'expired') return false;
  await closeCheckoutSession(services, orderId, state);
  return true;
}

/**
 * Ends the holds of orders whose deadlines fell within the same second (one relay's delayed job
 * for them, run at the last of those deadlines). Every order is tried; when any failed, the job
 * fails after the others, and its retry finds those already expired.
 */
export async function expireOrders(services: OrderEnding, orderIds: number[]): Promise<number> {
  const expired = await forEachOrder(orderIds, 'expiries', (orderId) => expireOrder(services, orderId));
  return expired.filter(Boolean).length;
}

/** The admin's cancel; with Stripe, the order's open payment page closes with it. */
export async function cancelOrder(
  services: OrderEnding,
  orderId: number,
  reason: string | undefined,
  metadata: Record<string, unknown>,
): Promise<void> {
  const state = await changeOrder(
    services.db,
    orderId,
    (_trx, current) => decide(current, { type: 'CancelOrder', reason }),
    metadata,
    PAYMENT_LOCK,
  );
  await closeCheckoutSession(services, orderId, state);
}

/** The sweep behind the per-order jobs: every unpaid order past its hold. */
export async function expireDueOrders(services: OrderEnding, batch = 200): Promise<number> {
  const due: { id: number }[] = await services
    .db('orders')
    .where({ status: 'pending', payment_status: 'unpaid' })
    .where('hold_until', '<=', services.db.fn.now())
    .orderBy('hold_until')
    .limit(batch)
    .select('id');
  let expired = 0;
  for (const { id } of due) if (await expireOrder(services, id)) expired++;
  return expired;
}

export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'unknown-order' | 'to-review';

/**
 * Applies one verified Stripe event. Its id is stored in the same transaction as the order
 * events it causes, so a redelivery changes nothing; a payment already recorded (an older
 * event arriving late) is not recorded twice.
 */
export async function applyStripeEvent(services: CoreServices, event: Stripe.Event): Promise<WebhookOutcome> {
  const { db } = services;
  const orderId = await orderOfEvent(db, event);
  if (orderId === null) {
    const stored = await db('stripe_events')
      .insert({ id: event.id, type: event.type })
      .onConflict('id')
      .ignore()
      .returning('id');
    if (stored.length === 0) return 'duplicate';
    services.log.warn({ eventId: event.id, type: event.type }, 'Stripe event for no known order');
    return 'unknown-order';
  }
  // Widened on purpose: the closure below sets it, which TypeScript's narrowing does not see.
  let outcome = 'ignored' as WebhookOutcome;
  await changeOrder(
    db,
    orderId,
    async (trx, state) => {
      const stored = await trx('stripe_events')
        .insert({ id: event.id, type: event.type, order_id: orderId })
        .onConflict('id')
        .ignore()
        .returning('id');
      if (stored.length === 0) {
        outcome = 'duplicate';
        return [];
      }
      const events = await eventsFor(trx, state, event);
      outcome = events.some((e) => e.type === 'PaymentToReview')
        ? 'to-review'
        : events.length
          ? 'applied'
          : 'ignored';
      return events;
    },
    { by: 'stripe', eventId: event.id },
    PAYMENT_LOCK,
  );
  if (outcome === 'to-review')
    services.log.warn({ orderId, eventId: event.id, type: event.type }, 'Stripe payment to review');
  return outcome;
}

async function orderOfEvent(db: Db, event: Stripe.Event): Promise<number | null> {
  let id: number | null = null;
  if (event.type.startsWith('checkout.session.')) {
    const session = event.data.object as Stripe.Checkout.Session;
    const ref = session.client_reference_id ?? session.metadata?.orderId ?? '';
    id = /^\d{1,9}$/.test(ref) ? Number(ref) : null;
  } else if (event.type === 'charge.refunded') {
    const charge = event.data.object as Stripe.Charge;
    const intent =
      typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
    if (intent) {
      const row = await db('orders')
        .where({ payment_reference: intent, payment_method: 'stripe' })
        .first('id');
      id = row?.id ?? null;
    }
  }
  if (id === null) return null;
  return (await db('orders').where({ id }).first('id')) ? id : null;
}

async function eventsFor(
  trx: Parameters<Parameters<typeof changeOrder>[2]>[0],
  state: OrderState,
  event: Stripe.Event,
): Promise<OrderEvent[]> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object as Stripe.Checkout.Session;
      if (session.payment_status !== 'paid') return [];
      const intent =
        typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
      const payment = { sessionId: session.id, amount: session.amount_total, currency: session.currency };
      const review = (reason: string) =>
        decide(state, {
          type: 'ReviewPayment',
          payment: { ...payment, eventId: event.id, reference: intent ?? null, reason },
        });
      // Stripe Tax: the order takes the tax of its own session first, then its total is checked.
      const taxed = stripeTaxOf(state, session);
      if (typeof taxed === 'string') return review(taxed);
      const assessed = taxed.reduce(evolve, state);
      const mismatch = cardPaymentMismatch(assessed, payment);
      if (mismatch) return review(mismatch);
      if (state.paymentStatus !== 'unpaid') return [];
      return [
        ...taxed,
        ...decide(assessed, {
          type: 'RecordPayment',
          method: 'stripe',
          amount: assessed.placed?.totalAmount,
          currency: orderCurrency(state),
          reference: intent ?? session.id,
          stockReserved:
            state.status === 'expired' ? await reserveStockAgain(trx, state.placed?.items ?? []) : undefined,
        }),
      ];
    }
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object as Stripe.Checkout.Session;
      // Another page's failure says nothing about this order's payment.
      if (state.paymentStatus !== 'unpaid' || !state.checkoutSessionIds.includes(session.id)) return [];
      return decide(state, { type: 'FailPayment', reason: 'The payment method was declined.' });
    }
    case 'checkout.session.expired':
      // The page expired; the order keeps its own hold (the customer may pay again until then).
      return [];
    case 'charge.refunded': {
      // A refund made in Stripe's dashboard: record what we do not know of yet.
      const charge = event.data.object as Stripe.Charge;
      const missing = Math.min(charge.amount_refunded, state.paidAmount) - state.refundedAmount;
      if (missing <= 0) return [];
      return decide(state, {
        type: 'IssueRefund',
        amount: missing,
        restock: false,
        refundId: null,
        reason: 'Refunded in Stripe',
      });
    }
    default:
      return [];
  }
}

/**
 * The TaxAssessed event a paid session brings a Stripe Tax order still without its tax (none for
 * any other order), or why the session's tax cannot be the order's.
 */
function stripeTaxOf(state: OrderState, session: Stripe.Checkout.Session): OrderEvent[] | string {
  if (!state.placed?.stripeTax || state.placed.taxAmount !== undefined || state.paymentStatus !== 'unpaid')
    return [];
  const tax = session.total_details?.amount_tax ?? null;
  const refused = stripeTaxMismatch(state, {
    sessionId: session.id,
    calculated: session.automatic_tax?.enabled === true && session.automatic_tax.status === 'complete',
    subtotal: session.amount_subtotal,
    tax,
  });
  return refused ?? decide(state, { type: 'AssessTax', amount: tax ?? 0, sessionId: session.id });
}

/** What an unpaid order's confirmation tells the customer to do: pay by card, or the writer's instructions. */
export function paymentGuidance(services: CoreServices, orderId: number): Promise<PaymentGuidance> {
  return paymentGuidanceOfBatch(services)(orderId);
}

/** paymentGuidance for one batch of confirmations: the Payments settings are read once for all of them. */
export function paymentGuidanceOfBatch(
  services: CoreServices,
): (orderId: number) => Promise<PaymentGuidance> {
  let settings: Promise<PaymentSettings> | undefined;
  return async (orderId) => {
    const orderUrl = await orderLink(services.db, services.publicUrl, orderId);
    if (services.stripe) return { mode: 'stripe', orderUrl };
    settings ??= paymentSettings(services.db, { cardPayments: false });
    return { mode: 'manual', instructions: (await settings).instructions, orderUrl };
  };
}

export type PaymentNextStep = {
  /** The order's own page (its link carries the order's key). */
  orderUrl: string;
  /** Stripe's payment page, when the order is to be paid by card. */
  paymentUrl?: string;
  /** The writer's instructions, when the order is to be paid by hand. */
  paymentInstructions?: string;
  /** The card payment could not be started; the order stands and can be paid from its page. */
  paymentError?: string;
};

/** What a customer does after placing an order: nothing (paid or free), pay by card, or follow the instructions. */
export async function paymentNextStep(
  services: CoreServices,
  order: { id: number; status: string; paymentStatus: string },
  /** The Payments settings when the caller has read them already. */
  settings?: PaymentSettings,
): Promise<PaymentNextStep> {
  const orderUrl = await orderLink(services.db, services.publicUrl, order.id);
  if (!isAwaitingPayment(order as Pick<OrderState, 'status' | 'paymentStatus'>)) return { orderUrl };
  if (!services.stripe)
    return {
      orderUrl,
      paymentInstructions: (settings ?? (await paymentSettings(services.db, { cardPayments: false })))
        .instructions,
    };
  try {
    return { orderUrl, paymentUrl: await stripePaymentUrl(services, order.id) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { orderUrl, paymentError: error.message };
  }
}
