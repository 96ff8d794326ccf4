import type { Counter } from 'prom-client';
import { recordOrderSource } from '../analytics/attribution.ts';
import { compiledOnce } from '../db/knex.ts';
import { type RateLimit, rateLimit } from '../kernel/rate-limit.ts';
import type { RequestContext } from '../kernel/request.ts';
import type { CoreServices } from '../kernel/services.ts';
import { type PaymentSettings, paymentSettingsQuery, toPaymentSettings } from '../orders/payment-settings.ts';
import { type PaymentNextStep, paymentNextStep } from '../orders/payments.ts';
import type { OrderSummary } from '../orders/presenters.ts';
import { type CartOwner, cartDigitalOnlyQuery, cartOwnerOf, findCartId } from '../shop/cart.ts';
import {
  type CheckoutField,
  type CheckoutInput,
  checkoutErrors,
  checkoutSchemaFor,
} from '../shop/checkout-schema.ts';
import type { OrderDiscount } from '../shop/discount-schema.ts';
import { DiscountRefused, judgeDiscount } from '../shop/discounts.ts';
import { SHOP_MESSAGES } from '../shop/messages.ts';
import { shippingMethodsQuery, toShippingMethod } from '../shop/shipping.ts';
import { pickShippingMethod, type ShippingMethod } from '../shop/shipping-rules.ts';
import { taxRatesQuery, taxSettingsFrom, toTaxRate } from '../shop/tax.ts';
import { STRIPE_TAX_SQL } from '../shop/tax-note.ts';
import type { TaxSettings } from '../shop/tax-rules.ts';
import { placeOrder } from './place-order.ts';

/** The orders-placed counter is the web process's: a checkout counts what it placed. */
type CheckoutServices = CoreServices & { metrics: { ordersPlaced: Counter } };

function checkoutLimit(services: CoreServices): RateLimit {
  return rateLimit(services.db, 'checkout', services.config.checkoutRateLimit);
}

type CheckoutContextRow = {
  digital_only: boolean;
  shipping_methods: Parameters<typeof toShippingMethod>[0][];
  payment: Parameters<typeof toPaymentSettings>[0];
  tax_rates: Parameters<typeof toTaxRate>[0][];
  prices_include_tax: boolean;
  stripe_tax: boolean;
};

/** What checking out reads before the order is placed, all in one statement. */
type CheckoutContext = {
  /** Every line of the cart is digital: no address is asked for. */
  digitalOnly: boolean;
  shippingMethods: ShippingMethod[];
  payment: PaymentSettings;
  tax: TaxSettings;
};

async function checkoutContext(services: CoreServices, state: RequestContext): Promise<CheckoutContext> {
  const { db } = services;
  const owner = cartOwnerOf(state);
  // The cart is the user's or the session's: a statement of its own for each.
  const [kind, ownerId] = owner.userId
    ? ['user', owner.userId]
    : owner.sessionId
      ? ['session', owner.sessionId]
      : ['none', null];
  const { rows } = await compiledOnce<{ rows: CheckoutContextRow[] }>(
    db,
    `checkoutContext:${kind}`,
    ownerId === null ? [] : [ownerId],
    (ownerValue) =>
      db.raw(
        `SELECT ? AS digital_only,
       (SELECT coalesce(json_agg(m ORDER BY m.position, m.id), '[]'::json) FROM ? m) AS shipping_methods,
       (SELECT row_to_json(s) FROM ? s) AS payment,
       (SELECT coalesce(json_agg(t), '[]'::json) FROM ? t) AS tax_rates,
       coalesce((SELECT prices_include_tax FROM blog_settings WHERE id = 1), false) AS prices_include_tax,
       ${STRIPE_TAX_SQL} AS stripe_tax`,
        [
          // The marker stands for the owner's id, a user's number or a session's text alike.
          cartDigitalOnlyQuery(db, {
            userId: kind === 'user' ? ownerValue : null,
            sessionId: kind === 'session' ? ownerValue : null,
          } as CartOwner),
          shippingMethodsQuery(db),
          paymentSettingsQuery(db),
          taxRatesQuery(db),
        ],
      ),
  );
  return {
    digitalOnly: rows[0].digital_only,
    shippingMethods: rows[0].shipping_methods.map(toShippingMethod),
    payment: toPaymentSettings(rows[0].payment, { cardPayments: Boolean(services.stripe) }),
    tax: taxSettingsFrom({
      rates: rows[0].tax_rates.map(toTaxRate),
      included: rows[0].prices_include_tax,
      stripeTax: rows[0].stripe_tax,
      cardPayments: Boolean(services.stripe),
    }),
  };
}

/** The visitor's checkout fields checked against their cart: no address when every line is digital. */
export async function parseCheckout(
  services: CoreServices,
  state: RequestContext,
  values: unknown,
): Promise<
  | { ok: true; data: CheckoutInput; context: CheckoutContext }
  | { ok: false; errors: Partial<Record<CheckoutField, string>>; digitalOnly: boolean }
> {
  const context = await checkoutContext(services, state);
  const { digitalOnly } = context;
  const parsed = checkoutSchemaFor(digitalOnly).safeParse(values);
  if (!parsed.success) return { ok: false, errors: checkoutErrors(parsed.error), digitalOnly };
  if (!digitalOnly) {
    // Checked here for the form's sake (the field named); the order picks again from the same list.
    const picked = pickShippingMethod(
      context.shippingMethods,
      parsed.data.shippingMethod,
      parsed.data.country,
    );
    if ('error' in picked) return { ok: false, errors: { shippingMethod: picked.error }, digitalOnly };
  }
  if (parsed.data.discountCode) {
    // Also for the field's sake: the order judges the code again under its row lock.
    const judged = await previewDiscount(
      services,
      state,
      parsed.data.discountCode,
      parsed.data.customerEmail,
    );
    if ('error' in judged) return { ok: false, errors: { discountCode: judged.error }, digitalOnly };
  }
  return { ok: true, data: parsed.data, context };
}

/** What the code would take off the visitor's cart now (the 'Apply' button), or why it would not. */
export async function previewDiscount(
  services: CoreServices,
  state: RequestContext,
  code: string,
  email: string | null,
): Promise<{ discount: OrderDiscount } | { error: string }> {
  const cartId = await findCartId(services.db, cartOwnerOf(state));
  const items = cartId
    ? await services
        .db('cart_items as i')
        .join('products as p', 'p.id', 'i.product_id')
        .leftJoin('product_variants as v', 'v.id', 'i.variant_id')
        .where({ 'i.cart_id': cartId, 'p.status': 'active' })
        .select(
          'i.product_id as productId',
          'i.quantity',
          services.db.raw('coalesce(v.price, p.price) AS "unitPrice"'),
        )
    : [];
  if (items.length === 0) return { error: SHOP_MESSAGES.cartEmptyCheckoutHint };
  try {
    return {
      discount: await judgeDiscount(services.db, {
        code,
        email,
        items,
        currency: services.config.currency,
        lock: false,
      }),
    };
  } catch (error) {
    if (error instanceof DiscountRefused) return { error: error.message };
    throw error;
  }
}

/**
 * Checkout from a form or the API: rate-limited per client IP, idempotent per key. Returns the
 * order and what its customer does next (pay by card, or the writer's instructions).
 */
export async function checkout(
  services: CheckoutServices,
  state: RequestContext,
  parsed: { data: CheckoutInput; context: CheckoutContext },
  idempotencyKey: string | null,
): Promise<{ order: OrderSummary; created: boolean; next: PaymentNextStep }> {
  await checkoutLimit(services).consume(state.clientIp);
  const { shippingMethods, payment, tax } = parsed.context;
  const result = await placeOrder(services.db, {
    owner: cartOwnerOf(state),
    checkout: parsed.data,
    shippingMethods,
    tax,
    idempotencyKey,
    holdMs: payment.holdMinutes * 60_000,
    currency: services.config.currency,
    metadata: { requestId: state.requestId, via: state.session.via ?? 'none' },
  });
  state.log.info({ orderId: result.order.id, created: result.created }, 'checkout');
  if (result.created) {
    services.metrics.ordersPlaced.inc();
    // The session as this request loaded it says whether there is a post to credit.
    if ('lastPost' in state.session.data)
      await recordOrderSource(services.db, result.order.id, state.session.id);
  }
  return { ...result, next: await paymentNextStep(services, result.order, payment) };
}
