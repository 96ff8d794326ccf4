import { recordOrderSource } from '../analytics/attribution.ts';
import { type OrderSummary, placeOrder } from '../orders/service.ts';
import { createRateLimit, type RateLimit } from '../server/rate-limit.ts';
import type { RequestState } from '../server/request-state.ts';
import type { AppServices } from '../server/services.ts';
import type { CartOwner } from './cart.ts';
import type { CheckoutInput } from './checkout-schema.ts';
import { SHOP_MESSAGES } from './messages.ts';

const limits = new WeakMap<AppServices, RateLimit>();

function checkoutLimit(services: AppServices): RateLimit {
  let limit = limits.get(services);
  if (!limit) {
    limit = createRateLimit(services.db, {
      keyPrefix: 'checkout',
      points: services.config.checkoutRateLimit,
      durationSeconds: 60,
      message: SHOP_MESSAGES.tooManyCheckouts,
    });
    limits.set(services, limit);
  }
  return limit;
}

/** The cart of this request's visitor: the user's when signed in, else the guest session's. */
export function cartOwnerOf(state: RequestState): CartOwner {
  return { userId: state.session.user?.id ?? null, sessionId: state.session.id };
}

/** Checkout from a form or the API: rate-limited per client IP, idempotent per key. */
export async function checkout(
  services: AppServices,
  state: RequestState,
  input: CheckoutInput,
  idempotencyKey: string | null,
): Promise<{ order: OrderSummary; created: boolean }> {
  await checkoutLimit(services).consume(state.clientIp);
  const result = await placeOrder(services.db, {
    owner: cartOwnerOf(state),
    checkout: input,
    idempotencyKey,
    cardPayments: Boolean(services.stripe),
    currency: services.config.currency,
    metadata: { requestId: state.requestId, via: state.session.via ?? 'none' },
  });
  state.log.info({ orderId: result.order.id, created: result.created }, 'checkout');
  if (result.created) {
    services.metrics.ordersPlaced.inc();
    await recordOrderSource(services.db, result.order.id, state.session.id);
  }
  return result;
}
