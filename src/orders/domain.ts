import { DEFAULT_CURRENCY } from '../currency.ts';
import { AppError, Conflict, NotFound, Unprocessable } from '../kernel/errors.ts';
import type { OrderDiscount } from '../shop/discount-schema.ts';
import { formatPrice } from '../shop/price.ts';
import { divideHalfUp, type LineTax, taxAdded, taxLabel } from '../shop/tax-rules.ts';
import { NO_SHIPPING } from './fulfilment.ts';

/**
 * The order's rules as pure functions: decide(state, command) → events, evolve(state, event).
 * No I/O here; the store folds events with evolve and asks decide what may happen next. A
 * command the rules refuse throws Conflict when the order's state forbids it, Unprocessable when
 * its input is unusable.
 */

export type OrderStatus = 'pending' | 'processing' | 'shipped' | 'delivered' | 'cancelled' | 'expired';
export type PaymentStatus = 'unpaid' | 'paid' | 'partially_refunded' | 'refunded';
export type PaymentMethod = 'stripe' | 'manual' | 'free';

export type OrderLine = {
  /** The projection's order_items id, fixed when the order is placed so a rebuild reproduces it. */
  lineId: number;
  productId: number | null;
  productName: string;
  /** The variant ordered and its label ('Size: M'); absent for a product without options. */
  variantId?: number;
  variant?: string | null;
  quantity: number;
  /** Unit price in cents at the time of the order. */
  priceAtTime: number;
  /** The line's tax (on its amount after its share of the discount); absent: none. */
  tax?: LineTax;
};

export type OrderPlacedData = {
  userId: number | null;
  sessionId: string | null;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  address: string;
  city: string;
  postalCode: string;
  country: string;
  shippingMethod: string;
  /** Cents, in totalAmount; absent on orders placed before shipping methods: 0. */
  shippingCost?: number;
  notes: string | null;
  idempotencyKey: string | null;
  items: OrderLine[];
  totalAmount: number;
  /** ISO time until which the unpaid order holds its stock; absent on orders placed before payments. */
  holdUntil?: string | null;
  /** The shop's currency when it was placed (CURRENCY); absent on orders placed before it: usd. */
  currency?: string;
  /** The code applied and what it took off the items (cents, out of totalAmount); absent: none. */
  discount?: OrderDiscount;
  /** The lines' tax (cents): added to totalAmount, or a part of it when taxIncluded; absent: none. */
  taxAmount?: number;
  /** The prices were entered with tax: the tax is a part of the lines' amounts. */
  taxIncluded?: boolean;
  /**
   * Stripe Tax computes the tax when the customer pays (the writer's setting): placed without
   * tax, the order takes Stripe's amount from its TaxAssessed event.
   */
  stripeTax?: boolean;
};

/** The tax Stripe Tax charged on the order's Checkout Session (cents): added to the total unless included. */
export type TaxAssessedData = { amount: number; sessionId: string };

export type PaymentSucceededData = {
  method: PaymentMethod;
  amount: number;
  currency: string;
  /** Stripe's payment intent id, or the reference the admin typed (a bank transfer's). */
  reference: string | null;
  /** A payment for an order that had expired: re-opened when its stock was still there, else to refund. */
  afterExpiry?: 'reopened' | 'refund-needed';
  /** The invoice's number (2026-0001), given when the event is appended; absent: a free order's, or before invoices. */
  invoiceNumber?: string;
};

/** A card payment that does not match the order: kept for the writer to look at, never counted as paid. */
export type PaymentToReviewData = {
  /** The Stripe event that reported it. */
  eventId: string;
  /** Its Checkout Session, and the payment intent when it had one. */
  sessionId: string;
  reference: string | null;
  amount: number | null;
  currency: string | null;
  /** Why it was not taken as this order's payment, in the admin's words. */
  reason: string;
};

export type RefundIssuedData = {
  amount: number;
  /** The refund's share of the order's tax (cents, a part of amount); absent: none. */
  tax?: number;
  restock: boolean;
  /** Stripe's refund id; null for a refund recorded by hand or made in Stripe's dashboard. */
  refundId: string | null;
  reason: string | null;
  /** The credit note's number (CN-2026-0001), given when the event is appended; absent before credit notes. */
  creditNoteNumber?: string;
};

/** The mails an order sends after its confirmation; a refund's key carries its event version. */
export type OrderMailKind =
  | 'payment-received'
  | 'order-expired'
  | 'refund-issued'
  | 'downloads'
  | 'order-shipped'
  | 'order-cancelled';

export type OrderEvent =
  | { type: 'OrderPlaced'; data: OrderPlacedData }
  /** The seed's payment event, before payments existed: still folded for old streams. */
  | { type: 'PaymentRecorded'; data: Record<string, never> }
  | { type: 'PaymentRequested'; data: { checkoutSessionId: string; expiresAt: string } }
  | { type: 'PaymentSucceeded'; data: PaymentSucceededData }
  | { type: 'TaxAssessed'; data: TaxAssessedData }
  | { type: 'PaymentFailed'; data: { reason: string } }
  | { type: 'PaymentToReview'; data: PaymentToReviewData }
  | { type: 'OrderExpired'; data: Record<string, never> }
  | { type: 'RefundIssued'; data: RefundIssuedData }
  | { type: 'OrderMailSent'; data: { kind: OrderMailKind; key: string; to: string } }
  /** carrier and trackingUrl: absent on orders shipped before carriers existed. */
  | { type: 'OrderShipped'; data: { trackingNumber: string; carrier?: string; trackingUrl?: string } }
  | { type: 'OrderDelivered'; data: Record<string, never> }
  | { type: 'OrderCancelled'; data: { reason: string | null; refunded: boolean } }
  | { type: 'ConfirmationEmailSent'; data: { to: string } }
  /** The customer deleted their account: the order keeps its lines and amounts, not who they were. */
  | { type: 'CustomerDataErased'; data: Record<string, never> };

export type OrderEventType = OrderEvent['type'];

export type OrderCommand =
  | { type: 'PlaceOrder'; order: OrderPlacedData }
  | {
      type: 'RecordPayment';
      /** Manual (the admin's 'Mark as paid') when absent. */
      method?: PaymentMethod;
      /** The order's total when absent. */
      amount?: number;
      /** The order's currency when absent. */
      currency?: string;
      reference?: string | null;
      /** For a payment on an expired order: whether its stock could be reserved again. */
      stockReserved?: boolean;
    }
  | { type: 'RequestPayment'; checkoutSessionId: string; expiresAt: string }
  | { type: 'FailPayment'; reason: string }
  | { type: 'ReviewPayment'; payment: PaymentToReviewData }
  | { type: 'AssessTax'; amount: number; sessionId: string }
  | { type: 'ExpireOrder'; now: Date }
  | { type: 'IssueRefund'; amount: number; restock: boolean; refundId: string | null; reason?: string }
  | { type: 'RecordMailSent'; kind: OrderMailKind; key: string; to: string }
  | { type: 'ShipOrder'; trackingNumber: string; carrier?: string; trackingUrl?: string }
  | { type: 'MarkDelivered' }
  | { type: 'CancelOrder'; reason?: string }
  | { type: 'RecordConfirmationSent'; to: string }
  | { type: 'EraseCustomerData' };

/** The commands the admin area may send. */
export type AdminOrderCommand = Extract<
  OrderCommand,
  { type: 'RecordPayment' | 'ShipOrder' | 'MarkDelivered' | 'CancelOrder' | 'IssueRefund' }
>;

export type OrderState = {
  version: number;
  placed: OrderPlacedData | null;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  trackingNumber: string | null;
  carrier: string | null;
  trackingUrl: string | null;
  confirmationSent: boolean;
  cancelReason: string | null;
  paymentMethod: PaymentMethod | null;
  paymentReference: string | null;
  /** The invoice of the payment; null until one is paid (and for a free order). */
  invoiceNumber: string | null;
  paidAmount: number;
  refundedAmount: number;
  /** The tax given back by refunds (cents, a part of refundedAmount). */
  refundedTax: number;
  checkoutSessionId: string | null;
  /** Every Checkout Session opened for the order: a payment on any of them is the order's own. */
  checkoutSessionIds: string[];
  /** Paid after it expired with its stock gone: the money must go back. */
  refundNeeded: boolean;
  /** Keys of the mails already sent (OrderMailSent). */
  mailsSent: string[];
  /** The order's units went back to stock (cancelled, expired or restocked by a refund). */
  stockReleased: boolean;
  /** Its discount code's use was given back (expired, or cancelled unpaid). */
  discountReleased: boolean;
  /** The customer's personal fields were erased (CustomerDataErased): nothing more is mailed to them. */
  customerErased: boolean;
};

export const initialOrderState: OrderState = {
  version: 0,
  placed: null,
  status: 'pending',
  paymentStatus: 'unpaid',
  trackingNumber: null,
  carrier: null,
  trackingUrl: null,
  confirmationSent: false,
  cancelReason: null,
  paymentMethod: null,
  paymentReference: null,
  invoiceNumber: null,
  paidAmount: 0,
  refundedAmount: 0,
  refundedTax: 0,
  checkoutSessionId: null,
  checkoutSessionIds: [],
  refundNeeded: false,
  mailsSent: [],
  stockReleased: false,
  discountReleased: false,
  customerErased: false,
};

/** What an erased order says of its customer: the country stays (the shop's tax records need it). */
export const ERASED_CUSTOMER = {
  userId: null,
  sessionId: null,
  email: '',
  firstName: 'Deleted',
  lastName: 'user',
  phone: null,
  address: '',
  city: '',
  postalCode: '',
  notes: null,
} as const satisfies Partial<OrderPlacedData>;

/** The placed order without its customer's personal fields; lines, amounts and shipping kept. */
export function eraseCustomer(placed: OrderPlacedData): OrderPlacedData {
  return { ...placed, ...ERASED_CUSTOMER };
}

/**
 * Whether the order still holds a use of its discount code: an order that expired, or was
 * cancelled before any payment, gives it back; a payment after expiry that re-opens it takes it again.
 */
export function holdsDiscountUse(state: OrderState): boolean {
  return Boolean(state.placed?.discount) && !state.discountReleased;
}

/** The currency of the order's amounts: the one it was placed in. */
export function orderCurrency(state: Pick<OrderState, 'placed'>): string {
  return state.placed?.currency ?? DEFAULT_CURRENCY;
}

/** What a card payment reports: its Checkout Session and what it charged. */
export type CardPayment = { sessionId: string; amount: number | null; currency: string | null };

/**
 * Why a card payment is not this order's own (null when it is): it must come from a Checkout
 * Session opened for the order and charge its total in its currency. A Payment Link or another
 * integration on the same Stripe account can report any order number with any amount.
 */
export function cardPaymentMismatch(state: OrderState, payment: CardPayment): string | null {
  if (!state.checkoutSessionIds.includes(payment.sessionId))
    return 'It was not made on a payment page opened for this order.';
  const currency = orderCurrency(state);
  if (payment.currency?.toLowerCase() !== currency.toLowerCase())
    return `It was made in ${payment.currency?.toUpperCase() ?? 'no currency'}, not in the order’s ${currency.toUpperCase()}.`;
  const total = state.placed?.totalAmount ?? 0;
  if (payment.amount !== total)
    return `It was for ${payment.amount === null ? 'no amount' : formatPrice(payment.amount, currency)}, not the order’s total of ${formatPrice(total, currency)}.`;
  return null;
}

/** What the order's tax line names: the rates of its lines, or Stripe Tax when Stripe calculated it. */
export function orderTaxLabel(placed: Pick<OrderPlacedData, 'items' | 'stripeTax'>): string {
  return placed.stripeTax ? 'Stripe Tax' : taxLabel(placed.items);
}

/** What a completed Checkout Session says of the tax Stripe Tax calculated on it. */
export type StripeTaxReport = {
  sessionId: string;
  /** automatic_tax.status is 'complete': the tax was calculated. */
  calculated: boolean;
  /** amount_subtotal: the lines before tax. */
  subtotal: number | null;
  /** total_details.amount_tax. */
  tax: number | null;
};

/**
 * Why a Stripe Tax order cannot take the tax a session reports (null when it can): the session
 * must be the order's own, its tax calculated, and its lines the order's total before tax.
 */
export function stripeTaxMismatch(state: OrderState, report: StripeTaxReport): string | null {
  if (!state.checkoutSessionIds.includes(report.sessionId))
    return 'It was not made on a payment page opened for this order.';
  if (!report.calculated || report.tax === null || !Number.isInteger(report.tax) || report.tax < 0)
    return 'Stripe Tax did not calculate the tax of this payment.';
  const total = state.placed?.totalAmount ?? 0;
  if (report.subtotal !== total) {
    const currency = orderCurrency(state);
    return `Its items came to ${report.subtotal === null ? 'no amount' : formatPrice(report.subtotal, currency)} before tax, not the order’s ${formatPrice(total, currency)}.`;
  }
  return null;
}

/**
 * A refund's share of the order's tax, in proportion to the payment (half up in cents); the
 * refund that completes it gives back all the tax still held, so the shares add up exactly.
 */
function refundTax(state: OrderState, amount: number): { tax?: number } {
  const tax = state.placed?.taxAmount ?? 0;
  if (tax === 0 || state.paidAmount === 0) return {};
  const rest = tax - state.refundedTax;
  if (state.refundedAmount + amount >= state.paidAmount) return { tax: rest };
  return { tax: Math.min(rest, divideHalfUp(amount * tax, state.paidAmount)) };
}

export function evolve(state: OrderState, event: OrderEvent): OrderState {
  const version = state.version + 1;
  switch (event.type) {
    case 'OrderPlaced':
      return { ...initialOrderState, version, placed: event.data };
    case 'PaymentRecorded':
      return {
        ...state,
        version,
        paymentStatus: 'paid',
        status: 'processing',
        paymentMethod: 'manual',
        paidAmount: state.placed?.totalAmount ?? 0,
      };
    case 'PaymentRequested':
      return {
        ...state,
        version,
        checkoutSessionId: event.data.checkoutSessionId,
        checkoutSessionIds: [...state.checkoutSessionIds, event.data.checkoutSessionId],
      };
    case 'PaymentSucceeded': {
      const refundNeeded = event.data.afterExpiry === 'refund-needed';
      return {
        ...state,
        version,
        paymentStatus: 'paid',
        // Nothing to ship (every line a download): the order is complete once paid.
        status: refundNeeded
          ? state.status
          : state.placed?.shippingMethod === NO_SHIPPING
            ? 'delivered'
            : 'processing',
        paymentMethod: event.data.method,
        paymentReference: event.data.reference,
        invoiceNumber: event.data.invoiceNumber ?? null,
        paidAmount: event.data.amount,
        refundNeeded,
        // Re-opened: its units were taken from stock again.
        stockReleased: event.data.afterExpiry === 'reopened' ? false : state.stockReleased,
        discountReleased: event.data.afterExpiry === 'reopened' ? false : state.discountReleased,
      };
    }
    case 'TaxAssessed': {
      const placed = state.placed;
      if (!placed) return { ...state, version };
      return {
        ...state,
        version,
        placed: {
          ...placed,
          taxAmount: event.data.amount,
          totalAmount: placed.totalAmount + taxAdded(event.data.amount, placed.taxIncluded ?? false),
        },
      };
    }
    case 'PaymentFailed':
    case 'PaymentToReview':
      return { ...state, version };
    case 'OrderExpired':
      return { ...state, version, status: 'expired', stockReleased: true, discountReleased: true };
    case 'RefundIssued': {
      const refundedAmount = state.refundedAmount + event.data.amount;
      const full = refundedAmount >= state.paidAmount;
      return {
        ...state,
        version,
        refundedAmount,
        refundedTax: state.refundedTax + (event.data.tax ?? 0),
        paymentStatus: full ? 'refunded' : 'partially_refunded',
        refundNeeded: full ? false : state.refundNeeded,
        stockReleased: state.stockReleased || event.data.restock,
      };
    }
    case 'OrderMailSent':
      return { ...state, version, mailsSent: [...state.mailsSent, event.data.key] };
    case 'OrderShipped':
      return {
        ...state,
        version,
        status: 'shipped',
        trackingNumber: event.data.trackingNumber,
        carrier: event.data.carrier ?? null,
        trackingUrl: event.data.trackingUrl ?? null,
      };
    case 'OrderDelivered':
      return { ...state, version, status: 'delivered' };
    case 'OrderCancelled':
      return {
        ...state,
        version,
        status: 'cancelled',
        paymentStatus: event.data.refunded ? 'refunded' : state.paymentStatus,
        refundedAmount: event.data.refunded ? state.paidAmount : state.refundedAmount,
        refundedTax: event.data.refunded ? (state.placed?.taxAmount ?? 0) : state.refundedTax,
        stockReleased: true,
        discountReleased: state.discountReleased || state.paymentStatus === 'unpaid',
        cancelReason: event.data.reason,
      };
    case 'ConfirmationEmailSent':
      return { ...state, version, confirmationSent: true };
    case 'CustomerDataErased':
      return {
        ...state,
        version,
        placed: state.placed && eraseCustomer(state.placed),
        customerErased: true,
      };
  }
}

export function fold(events: OrderEvent[]): OrderState {
  return events.reduce(evolve, initialOrderState);
}

export function decide(state: OrderState, command: OrderCommand): OrderEvent[] {
  if (command.type === 'PlaceOrder') {
    if (state.placed) throw new Conflict('This order has already been placed.');
    const {
      items,
      totalAmount,
      shippingCost = 0,
      discount,
      taxAmount = 0,
      taxIncluded = false,
    } = command.order;
    if (items.length === 0) throw new Unprocessable('An order needs at least one item.');
    if (!Number.isInteger(shippingCost) || shippingCost < 0)
      throw new Unprocessable('The shipping cost must be a whole number of cents.');
    const subtotal = items.reduce((n, i) => n + i.quantity * i.priceAtTime, 0);
    const off = discount?.amount ?? 0;
    if (!Number.isInteger(off) || off < 0 || off > subtotal)
      throw new Unprocessable('A discount must be a whole number of cents, at most the items’ total.');
    const linesTax = items.reduce((n, i) => n + (i.tax?.amount ?? 0), 0);
    if (
      !items.every((i) => !i.tax || (Number.isInteger(i.tax.amount) && i.tax.amount >= 0)) ||
      linesTax !== taxAmount
    )
      throw new Unprocessable('The order’s tax does not match its lines.');
    const sum = subtotal - off + shippingCost + taxAdded(taxAmount, taxIncluded);
    if (sum !== totalAmount) throw new Unprocessable('The order total does not match its lines.');
    return [{ type: 'OrderPlaced', data: command.order }];
  }
  if (!state.placed) throw new NotFound('Order not found');
  switch (command.type) {
    case 'RecordPayment': {
      // A card payment arrives whatever we decided meanwhile: it is recorded, to be refunded.
      if (state.status === 'cancelled' && command.method !== 'stripe')
        throw new Conflict('A cancelled order cannot be paid.');
      if (state.paymentStatus !== 'unpaid') throw new Conflict('Payment has already been recorded.');
      const amount = command.amount ?? state.placed.totalAmount;
      if (!Number.isInteger(amount) || amount < 0)
        throw new Unprocessable('The amount paid must be a whole number of cents.');
      const data: PaymentSucceededData = {
        method: command.method ?? 'manual',
        amount,
        currency: command.currency ?? orderCurrency(state),
        reference: command.reference?.trim().slice(0, 200) || null,
      };
      // The money is real even when the order had expired: keep it, and say what happens to it.
      if (state.status === 'expired') data.afterExpiry = command.stockReserved ? 'reopened' : 'refund-needed';
      if (state.status === 'cancelled') data.afterExpiry = 'refund-needed';
      return [{ type: 'PaymentSucceeded', data }];
    }
    case 'AssessTax':
      if (!state.placed.stripeTax) throw new Conflict('This order’s tax is not calculated by Stripe.');
      if (state.paymentStatus !== 'unpaid' || state.placed.taxAmount !== undefined)
        throw new Conflict('This order’s tax has already been set.');
      if (!Number.isInteger(command.amount) || command.amount < 0)
        throw new Unprocessable('The tax must be a whole number of cents.');
      return [{ type: 'TaxAssessed', data: { amount: command.amount, sessionId: command.sessionId } }];
    case 'RequestPayment':
      if (state.status !== 'pending' || state.paymentStatus !== 'unpaid')
        throw new Conflict('This order is not waiting for payment.');
      return [
        {
          type: 'PaymentRequested',
          data: { checkoutSessionId: command.checkoutSessionId, expiresAt: command.expiresAt },
        },
      ];
    case 'FailPayment':
      if (state.paymentStatus !== 'unpaid') throw new Conflict('Payment has already been recorded.');
      return [{ type: 'PaymentFailed', data: { reason: command.reason } }];
    case 'ReviewPayment':
      return [{ type: 'PaymentToReview', data: command.payment }];
    case 'ExpireOrder': {
      if (state.status !== 'pending' || state.paymentStatus !== 'unpaid')
        throw new Conflict('Only an unpaid pending order can expire.');
      const holdUntil = state.placed.holdUntil;
      if (!holdUntil || Date.parse(holdUntil) > command.now.getTime())
        throw new Conflict('This order is still within its payment hold.');
      return [{ type: 'OrderExpired', data: {} }];
    }
    case 'IssueRefund': {
      const refundable = state.paidAmount - state.refundedAmount;
      if (state.paymentStatus === 'unpaid') throw new Conflict('This order has not been paid.');
      if (!Number.isInteger(command.amount) || command.amount < 1)
        throw new Unprocessable('Enter a refund amount of at least 1 cent.');
      if (refundable <= 0) throw new Conflict('This order has already been refunded in full.');
      if (command.amount > refundable)
        throw new Unprocessable(
          `A refund cannot be more than what is left of the payment (${formatPrice(refundable, orderCurrency(state))}).`,
        );
      return [
        {
          type: 'RefundIssued',
          data: {
            amount: command.amount,
            ...refundTax(state, command.amount),
            // The order's units go back once, whatever the number of refunds.
            restock: command.restock && !state.stockReleased,
            refundId: command.refundId,
            reason: command.reason?.trim() || null,
          },
        },
      ];
    }
    case 'RecordMailSent':
      if (state.mailsSent.includes(command.key)) throw new Conflict('This mail has already been sent.');
      // A mail that was on its way while the customer's data was erased: kept as sent, without the address.
      return [
        {
          type: 'OrderMailSent',
          data: { kind: command.kind, key: command.key, to: state.customerErased ? '' : command.to },
        },
      ];
    case 'ShipOrder': {
      if (state.refundNeeded) throw new Conflict('This payment came after the order expired: refund it.');
      const trackingNumber = command.trackingNumber.trim();
      if (!trackingNumber) throw new Unprocessable('A tracking number is required to ship an order.');
      if (state.status !== 'processing')
        throw new Conflict(
          state.status === 'pending'
            ? 'Record the payment before shipping the order.'
            : `An order that is ${state.status} cannot be shipped.`,
        );
      return [
        {
          type: 'OrderShipped',
          data: {
            trackingNumber,
            ...(command.carrier ? { carrier: command.carrier } : {}),
            ...(command.trackingUrl ? { trackingUrl: command.trackingUrl } : {}),
          },
        },
      ];
    }
    case 'MarkDelivered':
      if (state.status !== 'shipped') throw new Conflict('Only a shipped order can be marked delivered.');
      return [{ type: 'OrderDelivered', data: {} }];
    case 'CancelOrder':
      if (state.status !== 'pending' && state.status !== 'processing')
        throw new Conflict(`An order that is ${state.status} cannot be cancelled.`);
      if (state.paymentMethod === 'stripe' && state.paymentStatus !== 'refunded')
        throw new Conflict('Refund the card payment before cancelling the order.');
      return [
        {
          type: 'OrderCancelled',
          data: {
            reason: command.reason?.trim() || null,
            // A manual or free payment is given back outside Penstand: the cancellation records it.
            refunded: state.paymentStatus === 'paid' || state.paymentStatus === 'partially_refunded',
          },
        },
      ];
    case 'RecordConfirmationSent':
      if (state.confirmationSent) throw new Conflict('The confirmation email has already been sent.');
      // Sent before an erasure that committed first: its record keeps no address either.
      return [{ type: 'ConfirmationEmailSent', data: { to: state.customerErased ? '' : command.to } }];
    case 'EraseCustomerData':
      // Erasing twice changes nothing: a retried account deletion appends no second event.
      return state.customerErased ? [] : [{ type: 'CustomerDataErased', data: {} }];
  }
}

export type CommandOption = { allowed: true } | { allowed: false; reason: string };

/** Each admin command with a representative input: what decide() is asked about. */
const ADMIN_COMMAND_SAMPLES: AdminOrderCommand[] = [
  { type: 'RecordPayment' },
  { type: 'IssueRefund', amount: 1, restock: false, refundId: null },
  // Any non-empty tracking number: the question is whether the order's state allows shipping.
  { type: 'ShipOrder', trackingNumber: 'sample' },
  { type: 'MarkDelivered' },
  { type: 'CancelOrder' },
];

/**
 * Which admin commands the order's state allows, and for the others the rule that forbids
 * them, in decide()'s own words: the admin page offers exactly what decide() would accept.
 */
export function adminCommandOptions(state: OrderState): Record<AdminOrderCommand['type'], CommandOption> {
  const options = {} as Record<AdminOrderCommand['type'], CommandOption>;
  for (const command of ADMIN_COMMAND_SAMPLES) {
    try {
      decide(state, command);
      options[command.type] = { allowed: true };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      options[command.type] = { allowed: false, reason: error.message };
    }
  }
  return options;
}
