import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { type OutboxJob, writeOutboxJobs } from '../jobs/outbox.ts';
import { Conflict, Invalid } from '../kernel/errors.ts';
import { applyConsequences, MAX_ATTEMPTS } from '../orders/changes.ts';
import { decide, initialOrderState, type OrderCommand, type OrderLine } from '../orders/domain.ts';
import { NO_SHIPPING } from '../orders/fulfilment.ts';
import { orderByIdempotencyKey } from '../orders/lists.ts';
import { paymentSettings } from '../orders/payment-settings.ts';
import { type OrderSummary, summarize } from '../orders/presenters.ts';
import { commitEvents } from '../orders/store.ts';
import { CartEmpty, type CartOwner, type TakenLine, takeCartLines } from '../shop/cart.ts';
import { type CheckoutInput, splitName } from '../shop/checkout-schema.ts';
import type { OrderDiscount } from '../shop/discount-schema.ts';
import { judgeDiscount, takeDiscountUse } from '../shop/discounts.ts';
import { SHOP_MESSAGES } from '../shop/messages.ts';
import { listShippingMethods } from '../shop/shipping.ts';
import { pickShippingMethod, type ShippingMethod, shippingCost } from '../shop/shipping-rules.ts';
import {
  LastLineShort,
  ProductChanged,
  refuseLine,
  refuseShortLine,
  reserveStock,
  takeLastLineAndCommit,
} from '../shop/stock.ts';
import { listTaxRates, pricesIncludeTax } from '../shop/tax.ts';
import { orderLineTaxes, type TaxSettings, taxAdded } from '../shop/tax-rules.ts';

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
  /** The tax rates and whether prices include tax, as this request read them; read when absent. */
  tax?: TaxSettings;
};

export const IDEMPOTENCY_KEY_PATTERN = /^[\w-]{8,100}$/;

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
        // A product's price or name changed between the read and the reservation, or the last
        // line's stock ran short meanwhile: decide again (the read then refuses a short line).
        if (error instanceof LastLineShort && attempt === MAX_ATTEMPTS) await refuseShortLine(db, error.line);
        if (!(error instanceof ProductChanged || error instanceof LastLineShort) || attempt === MAX_ATTEMPTS)
          throw error;
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

/** The ids the take gave lines it read on sale (all of these lines): ascending, in the lines' order. */
function takenIds(lines: TakenLine[]): { orderId: number; lineIds: number[] } {
  const orderId = lines[0].order_id;
  const lineIds = lines.map((line) => line.line_id);
  if (orderId === null || lineIds.some((id) => id === null))
    throw new Error('A line read on sale was taken without its ids');
  return { orderId, lineIds: (lineIds as number[]).sort((a, b) => a - b) };
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
  const { orderId, lineIds } = takenIds(lines);
  const untaxed: OrderLine[] = lines.map((line, i) => ({
    lineId: lineIds[i],
    productId: line.product_id,
    ...(line.variant_id === null ? {} : { variantId: line.variant_id, variant: line.variant }),
    productName: line.name,
    quantity: line.quantity,
    priceAtTime: line.price,
  }));

  const subtotal = untaxed.reduce((n, i) => n + i.quantity * i.priceAtTime, 0);
  const discount = await discountOf(trx, checkout, untaxed, input.currency);
  const shipping = await shippingOf(trx, checkout, subtotal, input.shippingMethods);
  const tax = input.tax ?? { rates: await listTaxRates(trx), included: await pricesIncludeTax(trx) };
  // No address (every line a download): no country to tax by.
  const taxes = checkout.country
    ? orderLineTaxes({
        rates: tax.rates,
        country: checkout.country,
        included: tax.included,
        lines: untaxed.map((item, i) => ({
          amount: item.quantity * item.priceAtTime,
          category: lines[i].category,
        })),
        discount: discount?.amount ?? 0,
      })
    : [];
  const items = untaxed.map((item, i) => {
    const lineTax = taxes[i];
    return lineTax ? { ...item, tax: lineTax } : item;
  });
  const taxAmount = items.reduce((n, i) => n + (i.tax?.amount ?? 0), 0);
  const totalAmount = subtotal - (discount?.amount ?? 0) + shipping.cost + taxAdded(taxAmount, tax.included);
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
      ...(tax.byStripe
        ? { stripeTax: true, taxIncluded: tax.included }
        : taxAmount > 0
          ? { taxAmount, taxIncluded: tax.included }
          : {}),
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
  // The stock last, line by line in product order (one conditional UPDATE of its stock row each);
  // the commit follows, sent with the last line's UPDATE when that line's stock is limited. A line
  // the take read as unlimited takes nothing: that read (name, price, stock, status in one
  // statement of this transaction) is its reservation, and a second read would only move the
  // moment the order last looked, not close the gap to its commit (ADR 028).
  for (const [i, item] of items.entries()) {
    if (lines[i].stock === null) continue;
    if (i === items.length - 1 && !trx.parentTransaction) {
      const priced = { name: item.productName, price: item.priceAtTime, variant: item.variant ?? null };
      await takeLastLineAndCommit(trx, item, priced);
      break;
    }
    const reserved = await reserveStock(trx, item);
    if (
      reserved.name !== item.productName ||
      reserved.price !== item.priceAtTime ||
      reserved.variant !== (item.variant ?? null)
    )
      throw new ProductChanged();
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
