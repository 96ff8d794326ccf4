import Router from '@koa/router';
import type Stripe from 'stripe';
import { z } from 'zod';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { applyMembershipEvent, isMembershipEvent } from '../members/subscriptions.ts';
import { applyStripeEvent } from '../orders/payments.ts';
import { WEBHOOK_TOLERANCE_SECONDS } from '../payments/stripe.ts';
import { readBody } from '../server/body.ts';
import { isRefusal } from '../server/error-status.ts';
import type { AppServices } from '../server/services.ts';

/** Stripe's events are small; anything near this is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** What applyStripeEvent reads of every event: a signed body of another shape is not one Stripe sends. */
const eventShape = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** The `t=` of a Stripe-Signature header (seconds since the epoch). */
function signedAt(signature: string): number {
  return Number(/(?:^|,)t=(\d{1,12})(?:,|$)/.exec(signature)?.[1] ?? 0);
}

/**
 * POST /api/payments/stripe/webhook: Stripe's events, verified on the raw body with the SDK.
 * It carries no cookie, so neither sessions nor the CSRF check apply to it.
 */
export function paymentsRouter(services: AppServices): Router {
  const router = new Router();
  router.post('/payments/stripe/webhook', async (ctx) => {
    const { stripe, config } = services;
    if (!stripe || !config.stripe) throw new NotFound('Card payments are not set up on this shop.');
    const signature = ctx.get('stripe-signature');
    const raw = await readBody(ctx, WEBHOOK_BODY_LIMIT);
    if (!signature) throw new Invalid('Missing Stripe-Signature header.');
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(
        raw,
        signature,
        config.stripe.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
      );
      // The SDK refuses only old timestamps; one from the future would stay replayable until then.
      if (signedAt(signature) > Date.now() / 1000 + WEBHOOK_TOLERANCE_SECONDS) throw new Error('future');
    } catch {
      throw new Invalid('Invalid Stripe signature.');
    }
    if (!eventShape.safeParse(event).success) {
      ctx.state.log.warn({ body: raw.subarray(0, 200).toString() }, 'signed Stripe webhook is not an event');
      throw new Invalid('This is not a Stripe event.');
    }
    try {
      // Memberships' events (subscriptions, their invoices, subscription-mode Checkout) beside orders'.
      const outcome = isMembershipEvent(event)
        ? await applyMembershipEvent(services, event)
        : await applyStripeEvent(services, event);
      ctx.state.log.info({ eventId: event.id, type: event.type, outcome }, 'stripe event');
      ctx.body = { received: true, outcome };
    } catch (error) {
      // A refusal of our own rules will not change on a retry: acknowledge it, and log it for the admin.
      if (isRefusal(error)) {
        ctx.state.log.warn(
          { eventId: event.id, type: event.type, err: error.message },
          'stripe event refused',
        );
        ctx.body = { received: true, outcome: 'refused', message: error.message };
        return;
      }
      throw error;
    }
  });
  return router;
}
