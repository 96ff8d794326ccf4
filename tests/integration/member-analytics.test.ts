import { beforeAll, describe, expect, it } from 'vitest';
import { rememberPostRead } from '../../src/analytics/attribution.ts';
import { signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { createTierViaApi, paidMember } from '../support/members.ts';
import { deliverSigned, setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';

/**
 * Issue 33's Analytics figures: paying members, MRR, and paid memberships begun and ended, per day
 * of the tab's range, from memberships made through the webhook. Each history line the webhook
 * wrote is moved to a day of June 2025, so the days are known.
 */
const SECRET = 'whsec_member_analytics';
const stack = setUpCardPaymentsApp(SECRET);
let admin: Record<string, string>;

/** Moves a member's history lines of one type to a moment. */
async function happenedAt(userId: number, type: string, at: string) {
  const moved = await stack.app.services
    .db('membership_events')
    .where({ user_id: userId, type })
    .update({ created_at: new Date(at) });
  expect(moved).toBe(1);
}

async function analytics(from: string, to: string) {
  const res = await fetch(`${stack.app.url}/admin?tab=analytics&range=custom&from=${from}&to=${to}`, {
    headers: admin,
  });
  expect(res.status).toBe(200);
  return res.text();
}

const row = (day: string, paid: number, mrr: string, started: number, cancelled: number) =>
  `<tr><th scope="row">${day}</th><td>${paid}</td><td>${mrr}</td><td>${started}</td><td>${cancelled}</td></tr>`;

beforeAll(async () => {
  admin = (await signedInSession(stack.app, { role: 'admin' })).headers;
});

describe('paid members on the Analytics tab', () => {
  it('says there were none in a range without paid members', async () => {
    const page = await analytics('2025-01-01', '2025-01-07');
    expect(page).toContain('Paid members');
    expect(page).toContain('No paid members in this period.');
  });

  it('counts paying members, MRR, new and cancelled paid memberships per day of the range', async () => {
    const tier = await createTierViaApi(stack.app, admin, {
      name: 'Reader',
      monthlyPrice: 500,
      yearlyPrice: 5000,
    });
    const monthly = await paidMember(stack.app, stack.stripe, SECRET, tier.id, 'month');
    await happenedAt(monthly.user.id, 'checkout.session.completed', '2025-06-02T10:00:00Z');
    // Late in the day (UTC): still that day's.
    const yearly = await paidMember(stack.app, stack.stripe, SECRET, tier.id, 'year');
    await happenedAt(yearly.user.id, 'checkout.session.completed', '2025-06-04T23:30:00Z');
    // A redelivery changes nothing, so counts nothing.
    expect((await deliverSigned(stack.app, monthly.completed, SECRET)).body.outcome).toBe('duplicate');
    // A complimentary member pays nothing: neither paid nor MRR.
    const comped = await signedInSession(stack.app);
    await fetch(`${stack.app.url}/api/admin/members/${comped.user.id}?action=comp`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ tierId: tier.id }),
    });
    await happenedAt(comped.user.id, 'comped', '2025-06-03T12:00:00Z');
    const ended = stack.stripe.event('customer.subscription.deleted', {
      ...stack.stripe.end(monthly.subscriptionId),
    });
    expect((await deliverSigned(stack.app, ended, SECRET)).body.outcome).toBe('applied');
    await happenedAt(monthly.user.id, 'customer.subscription.deleted', '2025-06-07T00:30:00Z');

    const page = await analytics('2025-06-01', '2025-06-10');
    expect(page).not.toContain('No paid members in this period.');
    for (const expected of [
      row('2025-06-01', 0, '$0.00', 0, 0),
      row('2025-06-02', 1, '$5.00', 1, 0),
      row('2025-06-03', 1, '$5.00', 0, 0),
      // A yearly 50.00 counts as a twelfth: 4.17 a month.
      row('2025-06-04', 2, '$9.17', 1, 0),
      row('2025-06-06', 2, '$9.17', 0, 0),
      row('2025-06-07', 1, '$4.17', 0, 1),
      row('2025-06-10', 1, '$4.17', 0, 0),
    ])
      expect(page).toContain(expected);
    expect(page).toContain('Paid members on 2025-06-10: 1');
    expect(page).toContain('MRR on 2025-06-10: $4.17');
    expect(page).toContain('New paid memberships: 2');
    expect(page).toContain('Cancelled: 1');

    // A range that starts later carries the members who paid before it.
    const later = await analytics('2025-06-05', '2025-06-06');
    expect(later).toContain(row('2025-06-05', 2, '$9.17', 0, 0));
    expect(later).toContain('New paid memberships: 0');
  });

  it('credits paid sign-ups to the post whose paywall the reader came from, or the post read last', async () => {
    await seedDemo(stack.app);
    const db = stack.app.services.db;
    const [paywalled, readLast] = await db('posts').where({ status: 'published' }).orderBy('id').limit(2);
    const tier = await createTierViaApi(stack.app, admin, {
      name: 'Patron',
      monthlyPrice: 900,
      yearlyPrice: 9000,
    });
    await paidMember(stack.app, stack.stripe, SECRET, tier.id, 'month', {
      returnTo: `/post/${paywalled.slug}`,
    });
    await paidMember(stack.app, stack.stripe, SECRET, tier.id, 'month', {
      returnTo: `/post/${paywalled.slug}`,
    });
    // From /membership, after reading a post: that post (as an order is credited).
    const reader = await signedInSession(stack.app);
    await rememberPostRead(db, reader.sid, readLast.id, new Date());
    await paidMember(stack.app, stack.stripe, SECRET, tier.id, 'year', { member: reader });
    // From /membership with nothing read: no post is credited.
    await paidMember(stack.app, stack.stripe, SECRET, tier.id, 'month');

    const today = new Date().toISOString().slice(0, 10);
    const page = await analytics(today, today);
    expect(page).toContain('Paid sign-ups by the post the reader came from');
    expect(page).toContain(`<th scope="row">${paywalled.title}</th><td>2</td>`);
    expect(page).toContain(`<th scope="row">${readLast.title}</th><td>1</td>`);
  });
});
