import type { Knex } from 'knex';
import { type Db, prepared } from '../db/knex.ts';
import { type OutboxJob, writeOutbox, writeOutboxJobs } from '../jobs/outbox.ts';
import { Conflict, Invalid, NotFound } from '../kernel/errors.ts';
import { CartEmpty, type CartOwner } from '../shop/cart.ts';
import { type CheckoutInput, splitName } from '../shop/checkout-schema.ts';
import { giveDiscountUseBack, judgeDiscount, takeDiscountUse } from '../shop/discounts.ts';
import { noLongerAvailable, SHOP_MESSAGES, stockLimitMessage } from '../shop/messages.ts';
import { listShippingMethods } from '../shop/shipping.ts';
import { pickShippingMethod, type ShippingMethod, shippingCost } from '../shop/shipping-rules.ts';
import { orderAccessKey } from './access-key.ts';
import {
  type AdminOrderCommand,
  adminCommandOptions,
  decide,
  holdsDiscountUse,
  initialOrderState,
  type OrderCommand,
  type OrderDiscount,
  type OrderEvent,
  type OrderLine,
  type OrderMailKind,
  type OrderState,
  type OrderStatus,
  orderCurrency,
  type PaymentMethod,
  type PaymentStatus,
} from './domain.ts';
import { type DownloadGrant, grantDownloads, listDownloads, revokeDownloads } from './downloads.ts';
import { FULFILMENT_ORDER_STATUSES, type FulfilmentStatus, NO_SHIPPING } from './fulfilment.ts';
import { paymentSettings } from './payment-settings.ts';
import {
  ConcurrencyError,
  commitEvents,
  loadStream,
  redactCustomerData,
  type StoredEvent,
  stateOf,
} from './store.ts';

export type OrderSummary = {
  id: number;
  totalAmount: number;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  customerName: string;
  customerEmail: string;
};

export type OrderView = {
  id: number;
  userId: number | null;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  address: string;
  city: string;
  postalCode: string;
  country: string;
  totalAmount: number;
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  shippingMethod: string;
  /** Cents, included in totalAmount. */
  shippingCost: number;
  /** The discount code applied, and what it took off (cents, out of totalAmount). */
  discountCode: string | null;
  discountAmount: number;
  trackingNumber: string | null;
  carrier: string | null;
  /** The carrier's tracking page for this order, as mailed to the customer. */
  trackingUrl: string | null;
  notes: string | null;
  confirmationSent: boolean;
  paymentMethod: PaymentMethod | null;
  /** Stripe's payment intent id, or the admin's reference for a manual payment. */
  paymentReference: string | null;
  paidAmount: number;
  refundedAmount: number;
  /** Until when an unpaid order holds its stock; null when it never expires. */
  holdUntil: string | null;
  refundNeeded: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
};

export type OrderItemView = {
  id: number;
  productId: number | null;
  productName: string;
  quantity: number;
  priceAtTime: number;
};

export type OrderHistoryEvent = {
  version: number;
  type: StoredEvent['type'];
  data: unknown;
  metadata: Record<string, unknown>;
  createdAt: string;
};

type OrderRow = {
  id: number;
  user_id: number | null;
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  address: string;
  city: string;
  postal_code: string;
  country: string;
  total_amount: number;
  status: OrderStatus;
  payment_status: PaymentStatus;
  shipping_method: string;
  shipping_cost: number;
  discount_code: string | null;
  discount_amount: number;
  tracking_number: string | null;
  carrier: string | null;
  tracking_url: string | null;
  notes: string | null;
  confirmation_sent: boolean;
  payment_method: PaymentMethod | null;
  payment_reference: string | null;
  paid_amount: number;
  refunded_amount: number;
  hold_until: Date | null;
  refund_needed: boolean;
  version: number;
  session_id: string | null;
  created_at: Date;
  updated_at: Date;
};

const ORDER_COLUMNS = [
  'id',
  'user_id',
  'session_id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'address',
  'city',
  'postal_code',
  'country',
  'total_amount',
  'status',
  'payment_status',
  'shipping_method',
  'shipping_cost',
  'discount_code',
  'discount_amount',
  'tracking_number',
  'carrier',
  'tracking_url',
  'notes',
  'confirmation_sent',
  'payment_method',
  'payment_reference',
  'paid_amount',
  'refunded_amount',
  'hold_until',
  'refund_needed',
  'version',
  'created_at',
  'updated_at',
];

export function presentOrder(row: OrderRow): OrderView {
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    phone: row.phone,
    address: row.address,
    city: row.city,
    postalCode: row.postal_code,
    country: row.country,
    totalAmount: row.total_amount,
    status: row.status,
    paymentStatus: row.payment_status,
    shippingMethod: row.shipping_method,
    shippingCost: row.shipping_cost,
    discountCode: row.discount_code,
    discountAmount: row.discount_amount,
    trackingNumber: row.tracking_number,
    carrier: row.carrier,
    trackingUrl: row.tracking_url,
    notes: row.notes,
    confirmationSent: row.confirmation_sent,
    paymentMethod: row.payment_method,
    paymentReference: row.payment_reference,
    paidAmount: row.paid_amount,
    refundedAmount: row.refunded_amount,
    holdUntil: row.hold_until ? row.hold_until.toISOString() : null,
    refundNeeded: row.refund_needed,
    version: row.version,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function summarize(
  order: Pick<
    OrderView,
    'id' | 'totalAmount' | 'status' | 'paymentStatus' | 'firstName' | 'lastName' | 'email'
  >,
): OrderSummary {
  return {
    id: order.id,
    totalAmount: order.totalAmount,
    status: order.status,
    paymentStatus: order.paymentStatus,
    customerName: [order.firstName, order.lastName].filter(Boolean).join(' '),
    customerEmail: order.email,
  };
}

export type PlaceOrderInput = {
  owner: CartOwner;
  checkout: CheckoutInput;
  /** One per checkout form (or the API's Idempotency-Key header): a retry returns the same order. */
  idempotencyKey: string | null;
  metadata?: Record<string, unknown>;
  /** How long the unpaid order holds its stock; the Payments setting when absent. */
  holdMs?: number;
  /** Whether it will be paid by card (Stripe): the hold's default differs. Manual when absent. */
  cardPayments?: boolean;
  /** The shop's currency (CURRENCY): the order's amounts are in it for good. */
  currency: string;
  /** The shipping methods as this request already read them (checking the form); read when absent. */
  shippingMethods?: ShippingMethod[];
};

export const IDEMPOTENCY_KEY_PATTERN = /^[\w-]{8,100}$/;

async function orderByIdempotencyKey(
  db: Db | Knex.Transaction,
  owner: CartOwner,
  key: string,
): Promise<OrderSummary | null> {
  const row: OrderRow | undefined = await db('orders').where({ idempotency_key: key }).first(ORDER_COLUMNS);
  if (!row) return null;
  const sameOwner = owner.userId ? row.user_id === owner.userId : row.session_id === owner.sessionId;
  if (!sameOwner) throw new Conflict('This checkout has already been submitted from another session.');
  return summarize(presentOrder(row));
}

/**
 * Places the order of the owner's cart in one transaction: stock reserved with a conditional
 * decrement, OrderPlaced appended and projected, the confirmation job written to the outbox,
 * the cart emptied. Either all of it happens or none. A key used before returns its order: the
 * key is looked up when the cart is found empty (the order took its lines) or when the order's
 * unique key refuses it (placed meanwhile, or from a cart filled again), not on every checkout.
 */
export async function placeOrder(
  db: Db,
  input: PlaceOrderInput,
): Promise<{ order: OrderSummary; created: boolean }> {
  const { owner, idempotencyKey } = input;
  try {
    const holdMs =
      input.holdMs ??
      (await paymentSettings(db, { cardPayments: input.cardPayments ?? false })).holdMinutes * 60_000;
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction((trx) => placeOrderIn(trx, { ...input, holdMs }));
      } catch (error) {
        // A product's price or name changed between the read and the reservation: decide again.
        if (!(error instanceof ProductChanged) || attempt === MAX_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    // The same key submitted twice at once: the loser returns the winner's order.
    const e = error as { code?: string; constraint?: string };
    if (idempotencyKey && e.code === '23505' && e.constraint === 'orders_idempotency_key_key') {
      const existing = await orderByIdempotencyKey(db, owner, idempotencyKey);
      if (existing) return { order: existing, created: false };
    }
    throw error;
  }
}

type TakenLine = {
  product_id: number;
  quantity: number;
  name: string;
  price: number;
  stock: number | null;
  status: string;
  order_id: number;
  line_id: number;
};

/**
 * Takes the owner's cart lines (deleted here, back if the order is not placed) with their
 * products' name, price, stock and status, and the new order's ids, in one statement. The cart
 * row is locked first, as an add to the cart locks it; the products are read unlocked.
 */
async function takeCartLines(trx: Knex.Transaction, owner: CartOwner): Promise<TakenLine[]> {
  const [column, ownerId] = owner.userId
    ? ['user_id', owner.userId]
    : owner.sessionId
      ? ['session_id', owner.sessionId]
      : [null, null];
  if (!column) return [];
  const { rows } = await prepared(
    trx.raw(
      `WITH cart AS (
       SELECT id FROM carts WHERE ?? = ? FOR UPDATE
     ), taken AS (
       DELETE FROM cart_items i USING cart WHERE i.cart_id = cart.id
       RETURNING i.product_id, i.quantity
     )
     SELECT t.product_id, t.quantity, p.name, p.price, p.stock, p.status,
       (SELECT nextval('order_ids')::int) AS order_id, nextval('order_items_id_seq')::int AS line_id
     FROM taken t JOIN products p ON p.id = t.product_id
     ORDER BY t.product_id`,
      [column, ownerId],
    ),
  );
  return rows;
}

async function placeOrderIn(
  trx: Knex.Transaction,
  input: PlaceOrderInput & { holdMs: number },
): Promise<{ order: OrderSummary; created: boolean }> {
  const { owner, checkout } = input;
  // In product order: the stock is reserved in that order by every checkout, so no deadlocks.
  const lines = await takeCartLines(trx, owner);
  if (lines.length === 0 && input.idempotencyKey) {
    const existing = await orderByIdempotencyKey(trx, owner, input.idempotencyKey);
    if (existing) return { order: existing, created: false };
  }
  if (lines.length === 0) throw new CartEmpty();
  if (checkout.address === '') {
    // The address was left out for a cart of digital products, judged before these lines were
    // locked: a product that lost its files since ships, and so needs one.
    const digital = await trx('product_files')
      .whereIn(
        'product_id',
        lines.map((line) => line.product_id),
      )
      .distinct('product_id');
    if (digital.length < new Set(lines.map((line) => line.product_id)).size)
      throw new Conflict(SHOP_MESSAGES.addressNeeded);
  }

  // Refused before the order is written when the read already shows it (a drop's tail: cheap 409s).
  for (const line of lines)
    if (line.status !== 'active' || (line.stock !== null && line.stock < line.quantity)) refuseLine(line);
  const orderId = lines[0].order_id;
  // The line ids in product order, as the lines are.
  const lineIds = lines.map((line) => line.line_id).sort((a, b) => a - b);
  const items: OrderLine[] = lines.map((line, i) => ({
    lineId: lineIds[i],
    productId: line.product_id,
    productName: line.name,
    quantity: line.quantity,
    priceAtTime: line.price,
  }));

  const subtotal = items.reduce((n, i) => n + i.quantity * i.priceAtTime, 0);
  const discount = await discountOf(trx, checkout, items, input.currency);
  const shipping = await shippingOf(trx, checkout, subtotal, input.shippingMethods);
  const totalAmount = subtotal - (discount?.amount ?? 0) + shipping.cost;
  const holdUntil = totalAmount > 0 ? new Date(Date.now() + input.holdMs) : null;
  const { firstName, lastName } = splitName(checkout.customerName);
  const command: OrderCommand = {
    type: 'PlaceOrder',
    order: {
      userId: owner.userId,
      sessionId: owner.sessionId,
      email: checkout.customerEmail,
      firstName,
      lastName,
      phone: null,
      address: checkout.address,
      city: checkout.city,
      postalCode: checkout.zipCode,
      country: checkout.country,
      shippingMethod: shipping.name,
      shippingCost: shipping.cost,
      notes: null,
      idempotencyKey: input.idempotencyKey,
      items,
      totalAmount,
      holdUntil: holdUntil?.toISOString() ?? null,
      currency: input.currency,
      ...(discount ? { discount } : {}),
    },
  };
  const jobs: OutboxJob[] = [
    ...(holdUntil
      ? [
          {
            name: 'orders.expire' as const,
            data: { orderId },
            jobId: `order-expire-${orderId}`,
            runAt: holdUntil,
          },
        ]
      : []),
    { name: 'orders.send-confirmation', data: { orderId }, jobId: `order-confirmation-${orderId}` },
  ];
  // The jobs in OrderPlaced's own statement; a free order's after its payment's, as ever.
  let state = await commitEvents(
    trx,
    orderId,
    initialOrderState,
    decide(initialOrderState, command),
    input.metadata ?? {},
    totalAmount === 0 ? [] : jobs,
  );
  if (discount) await takeDiscountUse(trx, orderId, discount, checkout.customerEmail);
  if (totalAmount === 0) {
    // Nothing to pay: a free order is paid the moment it is placed, in either payment mode.
    const payment: OrderCommand = {
      type: 'RecordPayment',
      method: 'free',
      amount: 0,
      reference: null,
    };
    const events = decide(state, payment);
    const placed = state;
    state = await commitEvents(trx, orderId, state, events, input.metadata ?? {});
    await applyConsequences(trx, orderId, placed, state, events);
    await writeOutboxJobs(trx, jobs);
  }
  // The stock last, line by line in product order; the commit follows.
  for (const [i, item] of items.entries()) {
    const reserved =
      (lines[i].stock === null ? await holdUnlimited(trx, lines[i].product_id) : null) ??
      (await reserveStock(trx, item));
    if (reserved.name !== item.productName || reserved.price !== item.priceAtTime) throw new ProductChanged();
  }
  const placed = state.placed;
  if (!placed) throw new Error('OrderPlaced did not place the order');
  const order = summarize({
    id: orderId,
    totalAmount: placed.totalAmount,
    status: state.status,
    paymentStatus: state.paymentStatus,
    firstName,
    lastName,
    email: placed.email,
  });
  return { order, created: true };
}

const MAX_ATTEMPTS = 3;

/**
 * A product with unlimited stock, as the order read it, held against an edit until the commit
 * (FOR SHARE: an admin's change waits for the order, or the order sees the change), with no
 * decrement: orders of it do not queue for its row. Null when it is limited now (or gone), so
 * reserveStock decides.
 */
async function holdUnlimited(
  trx: Knex.Transaction,
  productId: number,
): Promise<{ name: string; price: number } | null> {
  const { rows } = await prepared(
    trx.raw(
      `SELECT name, price FROM products WHERE id = ? AND status = 'active' AND stock IS NULL FOR SHARE`,
      [productId],
    ),
  );
  return rows[0] ?? null;
}

/** The line's units taken from stock by a conditional decrement under the product row's lock, or a 409. */
async function reserveStock(
  trx: Knex.Transaction,
  item: OrderLine,
): Promise<{ name: string; price: number }> {
  const reserved: { name: string; price: number }[] = await prepared(
    trx('products')
      .where({ id: item.productId, status: 'active' })
      .where((w) => w.whereNull('stock').orWhere('stock', '>=', item.quantity))
      .update({
        stock: trx.raw('CASE WHEN stock IS NULL THEN NULL ELSE stock - ? END', [item.quantity]),
        updated_at: trx.fn.now(),
      })
      .returning(['name', 'price']),
  );
  if (reserved.length === 0)
    refuseLine(await trx('products').where({ id: item.productId }).first('name', 'stock', 'status'));
  return reserved[0];
}

/** The 409 of a line that cannot be reserved: the product gone, inactive, or short of stock. */
function refuseLine(product: { name: string; stock: number | null; status: string } | undefined): never {
  if (product?.status !== 'active') {
    throw new Conflict(product ? noLongerAvailable(product.name) : SHOP_MESSAGES.productNotFound);
  }
  throw new Conflict(stockLimitMessage(product.stock ?? 0), SHOP_MESSAGES.stockLimitTitle);
}

/** A product's price or name changed after the order read it: the order is placed again. */
class ProductChanged extends Conflict {
  constructor() {
    super('A product in your cart changed while the order was placed. Please try again.');
  }
}

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
async function applyConsequences(
  trx: Knex.Transaction,
  orderId: number,
  before: OrderState,
  after: OrderState,
  events: OrderEvent[],
): Promise<void> {
  if (after.stockReleased && !before.stockReleased) await releaseStock(trx, after);
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
    const mail = (kind: OrderMailKind, key: string) =>
      writeOutbox(trx, 'orders.send-mail', { orderId, kind, key }, `order-${orderId}-${key}`);
    if (event.type === 'PaymentSucceeded' && event.data.method !== 'free')
      await mail('payment-received', 'payment-received');
    if (event.type === 'OrderExpired') await mail('order-expired', 'order-expired');
    if (event.type === 'RefundIssued') await mail('refund-issued', `refund-${version}`);
    if (event.type === 'OrderShipped') await mail('order-shipped', 'order-shipped');
    if (event.type === 'OrderCancelled') await mail('order-cancelled', 'order-cancelled');
  }
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

/** The checkout's discount code judged under its row lock (the client never sends an amount). */
async function discountOf(
  trx: Knex.Transaction,
  checkout: CheckoutInput,
  items: OrderLine[],
  currency: string,
): Promise<OrderDiscount | null> {
  if (!checkout.discountCode) return null;
  return judgeDiscount(trx, {
    code: checkout.discountCode,
    email: checkout.customerEmail,
    items: items.map((i) => ({ productId: i.productId, quantity: i.quantity, unitPrice: i.priceAtTime })),
    currency,
    lock: true,
  });
}

/** The order's shipping, priced here from the settings (the client never sends a price). */
async function shippingOf(
  trx: Knex.Transaction,
  checkout: CheckoutInput,
  subtotal: number,
  methods?: ShippingMethod[],
): Promise<{ name: string; cost: number }> {
  // A cart of downloads is checked out without an address: there is nothing to ship.
  if (checkout.address === '') return { name: NO_SHIPPING, cost: 0 };
  const picked = pickShippingMethod(
    methods ?? (await listShippingMethods(trx)),
    checkout.shippingMethod,
    checkout.country,
  );
  if ('error' in picked) throw new Invalid(picked.error);
  return { name: picked.method.name, cost: shippingCost(picked.method, subtotal) };
}

/** Gives the order's reserved units back (unlimited stock stays unlimited). */
async function releaseStock(trx: Knex.Transaction, state: OrderState): Promise<void> {
  for (const line of state.placed?.items ?? []) {
    if (line.productId === null) continue;
    await trx('products')
      .where({ id: line.productId })
      .whereNotNull('stock')
      .update({ stock: trx.raw('stock + ?', [line.quantity]), updated_at: trx.fn.now() });
  }
}

/**
 * Takes an expired order's units from stock again, all or none (a savepoint undoes a partial
 * reservation). Products with unlimited stock always succeed; a deleted or inactive one never does.
 */
export async function reserveStockAgain(trx: Knex.Transaction, state: OrderState): Promise<boolean> {
  try {
    await trx.transaction(async (sp) => {
      for (const line of state.placed?.items ?? []) {
        if (line.productId === null) throw new StockGone();
        const taken = await sp('products')
          .where({ id: line.productId, status: 'active' })
          .where((w) => w.whereNull('stock').orWhere('stock', '>=', line.quantity))
          .update({
            stock: sp.raw('CASE WHEN stock IS NULL THEN NULL ELSE stock - ? END', [line.quantity]),
            updated_at: sp.fn.now(),
          });
        if (taken === 0) throw new StockGone();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof StockGone) return false;
    throw error;
  }
}

class StockGone extends Error {}

export async function getOrder(db: Db, id: number): Promise<OrderView | null> {
  const row: OrderRow | undefined = await db('orders').where({ id }).first(ORDER_COLUMNS);
  return row ? presentOrder(row) : null;
}

export async function getOrderItems(db: Db, orderId: number): Promise<OrderItemView[]> {
  const rows = await db('order_items')
    .where({ order_id: orderId })
    .orderBy('id')
    .select('id', 'product_id', 'product_name', 'quantity', 'price_at_time');
  return rows.map((r) => ({
    id: r.id,
    productId: r.product_id,
    productName: r.product_name,
    quantity: r.quantity,
    priceAtTime: r.price_at_time,
  }));
}

export async function getOrderWithHistory(
  db: Db,
  id: number,
): Promise<{
  order: OrderView;
  items: OrderItemView[];
  events: OrderHistoryEvent[];
  actions: ReturnType<typeof adminCommandOptions>;
  /** The currency the order was placed in. */
  currency: string;
} | null> {
  const order = await getOrder(db, id);
  if (!order) return null;
  const [items, events] = await Promise.all([getOrderItems(db, id), loadStream(db, id)]);
  const state = stateOf(events);
  return {
    order,
    items,
    // Decided on the event stream, as the commands themselves are.
    actions: adminCommandOptions(state),
    currency: orderCurrency(state),
    events: events.map((e) => ({
      version: e.version,
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      createdAt: e.createdAt.toISOString(),
    })),
  };
}

export async function listOrders(
  db: Db,
  query: {
    status?: OrderStatus | 'all' | null;
    paymentStatus?: PaymentStatus | 'all' | null;
    fulfilment?: FulfilmentStatus | 'all' | null;
    search?: string | null;
    page?: number;
    limit?: number;
  },
): Promise<{
  orders: OrderView[];
  pagination: { page: number; limit: number; total: number; pages: number };
}> {
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? 20), 1), 100);
  const page = Math.max(Math.trunc(query.page ?? 1), 1);
  const base = db('orders');
  if (query.status && query.status !== 'all') base.where('status', query.status);
  if (query.paymentStatus && query.paymentStatus !== 'all') base.where('payment_status', query.paymentStatus);
  if (query.fulfilment === 'digital') base.where('shipping_method', NO_SHIPPING);
  else if (query.fulfilment && query.fulfilment !== 'all')
    base
      .whereNot('shipping_method', NO_SHIPPING)
      .whereIn('status', FULFILMENT_ORDER_STATUSES[query.fulfilment]);
  const search = query.search?.trim();
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => {
      w.whereILike('email', like).orWhereILike('first_name', like).orWhereILike('last_name', like);
      if (/^\d{1,9}$/.test(search)) w.orWhere('id', Number(search));
    });
  }
  const [{ count }] = await base.clone().count<{ count: number }[]>({ count: '*' });
  const rows: OrderRow[] = await base
    .clone()
    .select(ORDER_COLUMNS)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .offset((page - 1) * limit);
  const total = Number(count);
  return {
    orders: rows.map(presentOrder),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
  };
}

/**
 * The orders of this visitor: the session's guest orders, the user's own orders, and guest
 * orders placed with the user's email once that email is verified (else anyone could claim them).
 */
async function ownedOrderRows(db: Db, owner: CartOwner): Promise<OrderRow[]> {
  if (!owner.userId && !owner.sessionId) return [];
  const user = owner.userId
    ? await db('users').where({ id: owner.userId }).first('email', 'email_verified')
    : null;
  return db('orders')
    .where((w) => {
      if (owner.sessionId) w.orWhere('session_id', owner.sessionId);
      if (owner.userId) w.orWhere('user_id', owner.userId);
      if (user?.email_verified) w.orWhereRaw('lower(email) = lower(?)', [user.email]);
    })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(100)
    .select(ORDER_COLUMNS);
}

export async function listMyOrders(db: Db, owner: CartOwner): Promise<OrderSummary[]> {
  return (await ownedOrderRows(db, owner)).map((r) => summarize(presentOrder(r)));
}

export type AccountOrder = {
  order: Pick<
    OrderView,
    | 'id'
    | 'createdAt'
    | 'status'
    | 'paymentStatus'
    | 'totalAmount'
    | 'shippingMethod'
    | 'shippingCost'
    | 'trackingNumber'
    | 'carrier'
    | 'trackingUrl'
    | 'discountCode'
    | 'discountAmount'
  >;
  items: OrderItemView[];
  downloads: DownloadGrant[];
  /** The order page's link key, for paying or sharing it. */
  key: string;
};

/** A signed-in account's orders with their lines and downloads (the Account page's 'My orders'). */
export async function listAccountOrders(db: Db, userId: number): Promise<AccountOrder[]> {
  const rows = await ownedOrderRows(db, { userId, sessionId: null });
  return Promise.all(
    rows.map(async (row) => ({
      order: {
        id: row.id,
        createdAt: row.created_at.toISOString(),
        status: row.status,
        paymentStatus: row.payment_status,
        totalAmount: row.total_amount,
        shippingMethod: row.shipping_method,
        shippingCost: row.shipping_cost,
        trackingNumber: row.tracking_number,
        carrier: row.carrier,
        trackingUrl: row.tracking_url,
        discountCode: row.discount_code,
        discountAmount: row.discount_amount,
      },
      items: await getOrderItems(db, row.id),
      downloads: await listDownloads(db, row.id),
      key: await orderAccessKey(db, row.id),
    })),
  );
}

/**
 * Erases the customer from every order of the account (CustomerDataErased, the earlier events
 * redacted alike); the orders stay, with their lines and amounts, for the shop's records.
 */
export async function eraseAccountOrders(db: Db, userId: number): Promise<number> {
  const rows = await ownedOrderRows(db, { userId, sessionId: null });
  for (const row of rows)
    await changeOrder(
      db,
      row.id,
      async (trx, state) => {
        const events = decide(state, { type: 'EraseCustomerData' });
        if (events.length) await redactCustomerData(trx, row.id);
        return events;
      },
      { by: 'account-deletion' },
    );
  return rows.length;
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
