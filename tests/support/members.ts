import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { signedInSession } from './auth.ts';
import { deliverSigned, type StripeStandIn } from './stripe-stand-in.ts';

/** A tier made through the admin API. */
export async function createTierViaApi(
  app: TestApp,
  admin: Record<string, string>,
  tier: { name: string; monthlyPrice: number; yearlyPrice: number; description?: string },
): Promise<{ id: number; name: string; monthlyPrice: number; yearlyPrice: number }> {
  const res = await fetch(`${app.url}/api/admin/tiers`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify(tier),
  });
  expect(res.status).toBe(201);
  return (await res.json()).tier;
}

/**
 * A reader who subscribed through the API and paid on the stand-in, with the completed session's
 * event delivered: a paid member.
 */
export async function paidMember(
  app: TestApp,
  stripe: StripeStandIn,
  secret: string,
  tierId: number,
  interval: 'month' | 'year' = 'month',
  /** A reader already signed in (else a new one), and the page they subscribe from. */
  from: { member?: Awaited<ReturnType<typeof signedInSession>>; returnTo?: string } = {},
) {
  const member = from.member ?? (await signedInSession(app));
  const res = await fetch(`${app.url}/api/members?action=subscribe`, {
    method: 'POST',
    headers: { ...member.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ tierId, interval, returnTo: from.returnTo }),
  });
  expect(res.status).toBe(200);
  const { paymentUrl } = await res.json();
  const session = stripe.complete(String(paymentUrl).split('/pay/')[1]);
  const completed = stripe.event('checkout.session.completed', session);
  expect((await deliverSigned(app, completed, secret)).body.outcome).toBe('applied');
  return { ...member, session, subscriptionId: String(session.subscription), completed };
}

/** The reader's membership as `GET /api/users?action=me` gives it. */
export async function membershipOf(app: TestApp, headers: Record<string, string>) {
  const res = await fetch(`${app.url}/api/users?action=me`, { headers });
  expect(res.status).toBe(200);
  return (await res.json()).membership;
}
