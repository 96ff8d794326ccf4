import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { Conflict, Invalid, NotFound } from '../kernel/errors.ts';
import {
  DISCOUNT_MESSAGES,
  type DiscountInput,
  type DiscountLine,
  type DiscountType,
  discountAmount,
  discountSchema,
  type OrderDiscount,
} from './discount-schema.ts';

type Executor = Db | Knex.Transaction;

/** A code refused at checkout: the checkout form shows it at the 'Discount code' field. */
export class DiscountRefused extends Invalid {}

export type DiscountView = {
  id: number;
  code: string;
  type: DiscountType;
  value: number;
  usageLimit: number | null;
  perEmailLimit: number | null;
  startsAt: string | null;
  endsAt: string | null;
  minSubtotal: number;
  productIds: number[] | null;
  categories: string[] | null;
  active: boolean;
  /** Orders holding a use (an expired or cancelled unpaid one gave its use back). */
  uses: number;
  /** What those orders' customers paid, less refunds (cents). */
  revenue: number;
  createdAt: string;
};

type Row = {
  id: number;
  code: string;
  type: DiscountType;
  value: number;
  usage_limit: number | null;
  per_email_limit: number | null;
  starts_at: Date | null;
  ends_at: Date | null;
  min_subtotal: number;
  product_ids: number[] | null;
  categories: string[] | null;
  active: boolean;
  created_at: Date;
};

const COLUMNS = [
  'd.id',
  'd.code',
  'd.type',
  'd.value',
  'd.usage_limit',
  'd.per_email_limit',
  'd.starts_at',
  'd.ends_at',
  'd.min_subtotal',
  'd.product_ids',
  'd.categories',
  'd.active',
  'd.created_at',
];

function present(row: Row & { uses: number | string; revenue: number | string }): DiscountView {
  return {
    id: row.id,
    code: row.code,
    type: row.type,
    value: row.value,
    usageLimit: row.usage_limit,
    perEmailLimit: row.per_email_limit,
    startsAt: row.starts_at?.toISOString() ?? null,
    endsAt: row.ends_at?.toISOString() ?? null,
    minSubtotal: row.min_subtotal,
    productIds: row.product_ids,
    categories: row.categories,
    active: row.active,
    uses: Number(row.uses),
    revenue: Number(row.revenue),
    createdAt: row.created_at.toISOString(),
  };
}

function withStats(db: Db) {
  return db('discount_codes as d')
    .leftJoin('discount_uses as u', 'u.discount_id', 'd.id')
    .leftJoin('orders as o', 'o.id', 'u.order_id')
    .groupBy('d.id')
    .select(
      ...COLUMNS,
      db.raw('count(u.order_id) AS uses'),
      db.raw('coalesce(sum(o.paid_amount - o.refunded_amount), 0) AS revenue'),
    );
}

const NEWEST_FIRST = [
  { column: 'd.created_at', order: 'desc' },
  { column: 'd.id', order: 'desc' },
] as const;

/** Every code, newest first, with its uses and revenue. */
export async function listDiscounts(db: Db): Promise<DiscountView[]> {
  const rows = await withStats(db).orderBy([...NEWEST_FIRST]);
  return rows.map(present);
}

/** One page of the codes, newest first, for the admin's list. */
export async function discountsPage(
  db: Db,
  { page, limit }: { page: number; limit: number },
): Promise<{
  discounts: DiscountView[];
  pagination: { page: number; limit: number; total: number; pages: number };
}> {
  const [rows, counted] = await Promise.all([
    withStats(db)
      .orderBy([...NEWEST_FIRST])
      .limit(limit)
      .offset((page - 1) * limit),
    db('discount_codes').count({ n: '*' }).first(),
  ]);
  const total = Number(counted?.n ?? 0);
  return {
    discounts: rows.map(present),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
  };
}

export async function getDiscount(db: Db, id: number): Promise<DiscountView> {
  const row = await withStats(db).where('d.id', id).first();
  if (!row) throw new NotFound(DISCOUNT_MESSAGES.notFound);
  return present(row);
}

function columnsOf(input: DiscountInput) {
  return {
    code: input.code,
    type: input.type,
    value: input.value,
    usage_limit: input.usageLimit,
    per_email_limit: input.perEmailLimit,
    starts_at: input.startsAt,
    ends_at: input.endsAt,
    min_subtotal: input.minSubtotal,
    product_ids: input.productIds,
    categories: input.categories,
    active: input.active,
  };
}

async function codeUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new Invalid(DISCOUNT_MESSAGES.codeTaken);
    throw error;
  }
}

export async function createDiscount(db: Db, input: DiscountInput): Promise<DiscountView> {
  const [{ id }] = await codeUnique(() => db('discount_codes').insert(columnsOf(input)).returning('id'));
  return getDiscount(db, id);
}

/** Changes some fields: the result is checked whole by the same schema as a new code. */
export async function updateDiscount(
  db: Db,
  id: number,
  patch: Record<string, unknown>,
): Promise<DiscountView> {
  const {
    uses: _uses,
    revenue: _revenue,
    createdAt: _createdAt,
    id: _id,
    ...current
  } = await getDiscount(db, id);
  const parsed = discountSchema.safeParse({ ...current, ...patch });
  if (!parsed.success) throw new Invalid(parsed.error.issues[0].message);
  await codeUnique(() =>
    db('discount_codes')
      .where({ id })
      .update({ ...columnsOf(parsed.data), updated_at: db.fn.now() }),
  );
  return getDiscount(db, id);
}

/** A code never used goes; a used one is kept for its orders' sake (deactivate it instead). */
export async function deleteDiscount(db: Db, id: number): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('discount_codes').where({ id }).forUpdate().first('id');
    if (!row) throw new NotFound(DISCOUNT_MESSAGES.notFound);
    if (await trx('discount_uses').where({ discount_id: id }).first('order_id'))
      throw new Conflict(DISCOUNT_MESSAGES.usedCannotDelete);
    await trx('discount_codes').where({ id }).delete();
  });
}

/** The lines a code is judged on: each product's category from the catalogue. */
async function linesOf(
  db: Executor,
  items: { productId: number | null; quantity: number; unitPrice: number }[],
): Promise<DiscountLine[]> {
  const ids = items.flatMap((i) => (i.productId === null ? [] : [i.productId]));
  const categories = new Map<number, string>(
    (await db('products').whereIn('id', ids).select('id', 'category')).map((p) => [p.id, p.category]),
  );
  return items.map((i) => ({
    productId: i.productId ?? 0,
    category: (i.productId !== null && categories.get(i.productId)) || '',
    quantity: i.quantity,
    unitPrice: i.unitPrice,
  }));
}

/**
 * What the code takes off these lines for this customer, or DiscountRefused with the reason.
 * With `lock` (the order's own transaction) the code's row is locked until it commits, so the
 * uses counted here include every order placed before: concurrent checkouts queue on the row,
 * and a code with 10 uses left admits exactly 10 orders, per email too. Without it: a preview.
 */
export async function judgeDiscount(
  db: Executor,
  input: {
    code: string;
    email: string | null;
    items: { productId: number | null; quantity: number; unitPrice: number }[];
    currency: string;
    lock: boolean;
  },
): Promise<OrderDiscount> {
  const query = db('discount_codes as d').whereRaw('lower(d.code) = lower(?)', [input.code.trim()]);
  const row: Row | undefined = await (input.lock ? query.forUpdate() : query).first(COLUMNS);
  if (!row?.active) throw new DiscountRefused(DISCOUNT_MESSAGES.unknown);
  const now = Date.now();
  if (row.starts_at && row.starts_at.getTime() > now) throw new DiscountRefused(DISCOUNT_MESSAGES.notStarted);
  if (row.ends_at && row.ends_at.getTime() <= now) throw new DiscountRefused(DISCOUNT_MESSAGES.expired);
  if (row.usage_limit !== null) {
    const [{ n }] = await db('discount_uses').where({ discount_id: row.id }).count({ n: '*' });
    if (Number(n) >= row.usage_limit) throw new DiscountRefused(DISCOUNT_MESSAGES.usageLimit);
  }
  if (row.per_email_limit !== null && input.email) {
    const [{ n }] = await db('discount_uses')
      .where({ discount_id: row.id })
      .whereRaw('lower(email) = lower(?)', [input.email.trim()])
      .count({ n: '*' });
    if (Number(n) >= row.per_email_limit) throw new DiscountRefused(DISCOUNT_MESSAGES.perEmailLimit);
  }
  const judged = discountAmount(
    {
      type: row.type,
      value: row.value,
      minSubtotal: row.min_subtotal,
      productIds: row.product_ids,
      categories: row.categories as DiscountInput['categories'],
    },
    await linesOf(db, input.items),
    input.currency,
  );
  if ('error' in judged) throw new DiscountRefused(judged.error);
  return { discountId: row.id, code: row.code, amount: judged.amount };
}

/** The order holds a use of its code (placed, or re-opened by a payment after it expired). */
export async function takeDiscountUse(
  trx: Knex.Transaction,
  orderId: number,
  discount: OrderDiscount,
  email: string,
): Promise<void> {
  await trx('discount_uses')
    .insert({ order_id: orderId, discount_id: discount.discountId, email })
    .onConflict('order_id')
    .ignore();
}

/** An expired or cancelled unpaid order gives its use back. */
export async function giveDiscountUseBack(trx: Knex.Transaction, orderId: number): Promise<void> {
  await trx('discount_uses').where({ order_id: orderId }).delete();
}
