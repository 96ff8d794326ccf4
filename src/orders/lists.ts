import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { Conflict } from '../kernel/errors.ts';
import type { CartOwner } from '../shop/cart.ts';
import { orderAccessKey } from './access-key.ts';
import { adminCommandOptions, type OrderStatus, orderCurrency, type PaymentStatus } from './domain.ts';
import { type DownloadGrant, listDownloads } from './downloads.ts';
import { FULFILMENT_ORDER_STATUSES, type FulfilmentStatus, NO_SHIPPING } from './fulfilment.ts';
import {
  ORDER_COLUMNS,
  type OrderHistoryEvent,
  type OrderItemView,
  type OrderRow,
  type OrderSummary,
  type OrderView,
  presentOrder,
  summarize,
} from './presenters.ts';
import { loadStream, stateOf } from './store.ts';

/** The order a checkout's idempotency key placed, when it is this owner's (another's is a Conflict). */
export async function orderByIdempotencyKey(
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

export async function getOrder(db: Db, id: number): Promise<OrderView | null> {
  const row: OrderRow | undefined = await db('orders').where({ id }).first(ORDER_COLUMNS);
  return row ? presentOrder(row) : null;
}

export async function getOrderItems(db: Db, orderId: number): Promise<OrderItemView[]> {
  const rows = await db('order_items')
    .where({ order_id: orderId })
    .orderBy('id')
    .select('id', 'product_id', 'product_name', 'variant', 'quantity', 'price_at_time', 'tax_amount');
  return rows.map((r) => ({
    id: r.id,
    productId: r.product_id,
    productName: r.product_name,
    variant: r.variant,
    quantity: r.quantity,
    priceAtTime: r.price_at_time,
    taxAmount: r.tax_amount,
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
export async function ownedOrderRows(db: Db, owner: CartOwner): Promise<OrderRow[]> {
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
    | 'taxAmount'
    | 'taxIncluded'
    | 'invoiceNumber'
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
        taxAmount: row.tax_amount,
        taxIncluded: row.tax_included,
        invoiceNumber: row.invoice_number,
      },
      items: await getOrderItems(db, row.id),
      downloads: await listDownloads(db, row.id),
      key: await orderAccessKey(db, row.id),
    })),
  );
}
