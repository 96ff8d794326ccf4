import Stripe from 'stripe';
import type { Config } from '../config.ts';

/**
 * The official SDK, pointed at api.stripe.com, or at STRIPE_API_URL (a Stripe-compatible stand-in,
 * refused in production by the config). Undefined in manual payment mode.
 */
export function createStripeClient(config: Config): Stripe | undefined {
  if (!config.stripe) return undefined;
  const options: Stripe.StripeConfig = {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Penstand' },
  };
  if (config.stripe.apiUrl) {
    const url = new URL(config.stripe.apiUrl);
    options.protocol = url.protocol === 'https:' ? 'https' : 'http';
    options.host = url.hostname;
    options.port = url.port || (url.protocol === 'https:' ? 443 : 80);
  }
  return new Stripe(config.stripe.secretKey, options);
}

/** Where Stripe's hosted payment page lives: the checkout form is allowed to be sent there. */
export function paymentPageOrigin(config: Config): string | null {
  if (!config.stripe) return null;
  return config.stripe.apiUrl ? new URL(config.stripe.apiUrl).origin : 'https://checkout.stripe.com';
}

/** Stripe's webhook signature tolerance: an event signed longer ago is refused as a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
