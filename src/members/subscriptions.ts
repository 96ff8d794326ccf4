import type { Knex } from 'knex';
import type Stripe from 'stripe';
import { lastPostRead } from '../analytics/attribution.ts';
import { type MembershipChange, membershipOf, setMembership } from '../identity/membership.ts';
import { Conflict, NotFound, Unprocessable, UpstreamFailed } from '../kernel/errors.ts';
import { rateLimit } from '../kernel/rate-limit.ts';
import type { SessionUser } from '../kernel/request.ts';
import type { CoreServices } from '../kernel/services.ts';
import { getTier, type Tier, tierPrice } from '../shop/tiers.ts';
import type { SubscribeInput } from './member-schema.ts';
import { MEMBER_MESSAGES } from './messages.ts';

function stripeOf(services: CoreServices): Stripe {
  if (!services.stripe) throw new Conflict(MEMBER_MESSAGES.needsStripe);
  return services.stripe;
}

async function storedMembership(db: CoreServices['db'] | Knex.Transaction, userId: number) {
  return db('memberships').where({ user_id: userId }).first();
}

/**
 * The member's Stripe customer: the one stored, or a new one. The idempotency key is the user's,
 * so two subscribe clicks at once make one customer; it is kept only where none is stored yet.
 */
async function customerOf(services: CoreServices, stripe: Stripe, user: SessionUser): Promise<string> {
  const stored = await storedMembership(services.db, user.id);
  if (stored?.stripe_customer_id) return stored.stripe_customer_id;
  let customer: Stripe.Customer;
  try {
    customer = await stripe.customers.create(
      { email: user.email, metadata: { userId: String(user.id) } },
      { idempotencyKey: `member-customer-${user.id}` },
    );
  } catch (error) {
    services.log.warn(
      { userId: user.id, err: (error as Error).message },
      'could not create a Stripe customer',
    );
    throw new UpstreamFailed(MEMBER_MESSAGES.stripeUnreachable);
  }
  await services
    .db('memberships')
    .insert({ user_id: user.id, status: 'free' })
    .onConflict('user_id')
    .ignore();
  await services
    .db('memberships')
    .where({ user_id: user.id })
    .whereNull('stripe_customer_id')
    .update({ stripe_customer_id: customer.id });
  return (await storedMembership(services.db, user.id))?.stripe_customer_id ?? customer.id;
}

/**
 * `POST /api/members?action=subscribe` and the /membership forms: a Stripe Checkout Session in
 * subscription mode for the tier's price, priced from our own tier, never from the request.
 */
export async function startSubscription(
  services: CoreServices,
  user: SessionUser,
  input: SubscribeInput,
  sessionId: string | null,
): Promise<string> {
  await rateLimit(services.db, 'subscriptions').consume(String(user.id));
  const stripe = stripeOf(services);
  const tier = await getTier(services.db, input.tierId);
  if (!tier?.active) throw new NotFound(MEMBER_MESSAGES.tierNotFound);
  const current = await membershipOf(services.db, user.id);
  if (current.status === 'paid' || current.status === 'past_due')
    throw new Conflict(MEMBER_MESSAGES.alreadyPaid);
  const customer = await customerOf(services, stripe, user);
  const back = `${services.publicUrl}${input.returnTo ?? '/membership'}`;
  const join = back.includes('?') ? '&' : '?';
  const metadata: Record<string, string> = {
    userId: String(user.id),
    tierId: String(tier.id),
    interval: input.interval,
  };
  // Credited with the sign-up: the post whose paywall the reader subscribed from, else (from
  // /membership) the post the session read last, as an order is credited.
  const fromPost = /^\/post\/([\w-]{1,200})$/.exec(input.returnTo ?? '')?.[1];
  const lastRead = fromPost ? null : await lastPostRead(services.db, sessionId);
  const source =
    fromPost || lastRead !== null
      ? await services
          .db('posts')
          .where(fromPost ? { slug: fromPost } : { id: lastRead })
          .where({ status: 'published' })
          .first('id')
      : undefined;
  if (source) metadata.sourcePostId = String(source.id);
  try {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: String(user.id),
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: services.config.currency,
            unit_amount: tierPrice(tier, input.interval),
            recurring: { interval: input.interval },
            product_data: { name: tier.name },
          },
        },
      ],
      success_url: `${back}${join}membership=welcome`,
      cancel_url: back,
      metadata,
      subscription_data: { metadata },
    });
    if (!session.url) throw new Error('no url');
    return session.url;
  } catch (error) {
    services.log.warn({ userId: user.id, err: (error as Error).message }, 'could not start a subscription');
    throw new UpstreamFailed(MEMBER_MESSAGES.stripeUnreachable);
  }
}

/** `POST /api/members?action=portal`: Stripe's billing portal for the member's customer. */
export async function billingPortalUrl(services: CoreServices, user: SessionUser): Promise<string> {
  const stripe = stripeOf(services);
  const stored = await storedMembership(services.db, user.id);
  if (!stored?.stripe_customer_id) throw new Conflict(MEMBER_MESSAGES.noSubscription);
  try {
    const session = await stripe.billingPortal.sessions.create({
      customer: stored.stripe_customer_id,
      return_url: `${services.publicUrl}/account`,
    });
    return session.url;
  } catch (error) {
    services.log.warn(
      { userId: user.id, err: (error as Error).message },
      'could not open the billing portal',
    );
    throw new UpstreamFailed(MEMBER_MESSAGES.stripeUnreachable);
  }
}

export type MembershipOutcome = 'applied' | 'duplicate' | 'ignored' | 'unknown-member';

/** The events of memberships: subscription-mode Checkout, subscriptions and their invoices. */
export function isMembershipEvent(event: Stripe.Event): boolean {
  if (event.type.startsWith('customer.subscription.') || event.type.startsWith('invoice.')) return true;
  return (
    event.type.startsWith('checkout.session.') &&
    (event.data.object as Stripe.Checkout.Session).mode === 'subscription'
  );
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** The subscription an event is about, and the customer it names. */
function subscriptionNamed(event: Stripe.Event): {
  subscriptionId: string | null;
  customerId: string | null;
} {
  const object = event.data.object as unknown as Record<string, unknown>;
  if (event.type.startsWith('customer.subscription.'))
    return { subscriptionId: object.id as string, customerId: idOf(object.customer as string) };
  if (event.type.startsWith('invoice.')) {
    const invoice = event.data.object as Stripe.Invoice;
    return {
      subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
      customerId: idOf(invoice.customer as string),
    };
  }
  const session = event.data.object as Stripe.Checkout.Session;
  return {
    subscriptionId: idOf(session.subscription as string),
    customerId: idOf(session.customer as string),
  };
}

/** The post a completed Checkout Session credits with the sign-up (one of ours, still there), or null. */
async function sourcePostOf(trx: Knex.Transaction, event: Stripe.Event): Promise<number | null> {
  if (event.type !== 'checkout.session.completed') return null;
  const raw = (event.data.object as Stripe.Checkout.Session).metadata?.sourcePostId ?? '';
  if (!/^\d{1,9}$/.test(raw)) return null;
  return (
    (
      await trx('posts')
        .where({ id: Number(raw) })
        .first('id')
    )?.id ?? null
  );
}

/** What a subscription, as Stripe has it now, makes of the membership. */
export function changeFor(
  subscription: Stripe.Subscription,
  tier: Tier,
  before: { status?: string; past_due_since?: Date | null } | undefined,
): MembershipChange {
  const item = subscription.items.data[0];
  const base = {
    tier_id: tier.id,
    interval: item?.price.recurring?.interval === 'year' ? ('year' as const) : ('month' as const),
    current_period_end: item ? new Date(item.current_period_end * 1000) : null,
    cancel_at_period_end: subscription.cancel_at_period_end,
    stripe_subscription_id: subscription.id,
    comped_until: null,
  };
  if (subscription.status === 'active' || subscription.status === 'trialing')
    return { ...base, status: 'paid', past_due_since: null };
  if (subscription.status === 'past_due' || subscription.status === 'unpaid')
    return {
      ...base,
      status: 'past_due',
      // The grace period runs from the first failure, not from each retry's.
      past_due_since:
        before?.status === 'past_due' && before.past_due_since ? before.past_due_since : new Date(),
    };
  return { ...base, status: 'free', cancel_at_period_end: false, past_due_since: null };
}

/**
 * Applies one verified Stripe event to the membership it names. The subscription is read back from
 * Stripe, so events arriving out of order all end in Stripe's current state; the event's id is
 * stored with the change, so a redelivery changes nothing. An event that names another member's
 * customer, an unknown tier, or a price that is not the tier's is refused (and logged).
 */
export async function applyMembershipEvent(
  services: CoreServices,
  event: Stripe.Event,
): Promise<MembershipOutcome> {
  const stripe = stripeOf(services);
  const { db } = services;
  const { subscriptionId, customerId } = subscriptionNamed(event);
  const member = customerId
    ? await db('memberships').where({ stripe_customer_id: customerId }).first('user_id')
    : undefined;
  const recordOnly = async (outcome: MembershipOutcome): Promise<MembershipOutcome> => {
    const stored = await db('stripe_events')
      .insert({ id: event.id, type: event.type })
      .onConflict('id')
      .ignore()
      .returning('id');
    return stored.length ? outcome : 'duplicate';
  };
  if (!member) {
    services.log.warn({ eventId: event.id, type: event.type }, 'Stripe event for no known member');
    return recordOnly('unknown-member');
  }
  const userId: number = member.user_id;
  if (event.type.startsWith('checkout.session.')) {
    const session = event.data.object as Stripe.Checkout.Session;
    if (session.client_reference_id !== String(userId) || session.metadata?.userId !== String(userId))
      throw new Unprocessable('The Checkout Session names another member than its customer.');
    if (event.type !== 'checkout.session.completed' || session.status !== 'complete')
      return recordOnly('ignored');
  }
  if (!subscriptionId) return recordOnly('ignored');
  let subscription: Stripe.Subscription;
  try {
    subscription = await stripe.subscriptions.retrieve(subscriptionId);
  } catch (error) {
    services.log.warn(
      { eventId: event.id, err: (error as Error).message },
      'could not read the subscription',
    );
    throw new UpstreamFailed(MEMBER_MESSAGES.stripeUnreachable);
  }
  if (idOf(subscription.customer as string) !== customerId || subscription.metadata.userId !== String(userId))
    throw new Unprocessable('The subscription belongs to another member.');
  const tier = await getTier(db, Number(subscription.metadata.tierId));
  const item = subscription.items.data[0];
  if (!tier || !item) throw new Unprocessable('The subscription names no tier of this site.');
  const interval = item.price.recurring?.interval === 'year' ? 'year' : 'month';
  if (
    item.price.currency !== services.config.currency ||
    item.price.unit_amount !== tierPrice(tier, interval)
  )
    throw new Unprocessable('The subscription’s price is not its tier’s.');
  let outcome: MembershipOutcome = 'ignored';
  await db.transaction(async (trx) => {
    const stored = await trx('stripe_events')
      .insert({ id: event.id, type: event.type })
      .onConflict('id')
      .ignore()
      .returning('id');
    if (!stored.length) {
      outcome = 'duplicate';
      return;
    }
    const before = await trx('memberships').where({ user_id: userId }).forUpdate().first();
    // An old subscription's news (ended long after a new one began) leaves the new one alone.
    if (before?.stripe_subscription_id && before.stripe_subscription_id !== subscription.id) {
      const current = await stripe.subscriptions.retrieve(before.stripe_subscription_id).catch(() => null);
      if (current && current.status !== 'canceled' && current.status !== 'incomplete_expired') return;
    }
    const changed = await setMembership(trx, userId, changeFor(subscription, tier, before), {
      type: event.type,
      stripeEventId: event.id,
      sourcePostId: await sourcePostOf(trx, event),
    });
    outcome = changed ? 'applied' : 'ignored';
  });
  return outcome;
}
