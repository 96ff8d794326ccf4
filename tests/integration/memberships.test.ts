import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession } from '../support/auth.ts';
import { createTierViaApi, membershipOf, paidMember } from '../support/members.ts';
import { deliverSigned, setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';

const SECRET = 'whsec_memberships';
const stack = setUpCardPaymentsApp(SECRET);
let admin: Record<string, string>;
let tier: Awaited<ReturnType<typeof createTierViaApi>>;

beforeAll(async () => {
  admin = (await signedInSession(stack.app, { role: 'admin' })).headers;
  tier = await createTierViaApi(stack.app, admin, {
    name: 'Supporter',
    monthlyPrice: 500,
    yearlyPrice: 5000,
  });
});

const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });

describe('tiers', () => {
  it('lists active tiers publicly with their prices', async () => {
    const res = await fetch(`${stack.app.url}/api/tiers`);
    const { tiers } = await res.json();
    expect(tiers).toContainEqual(
      expect.objectContaining({ id: tier.id, monthlyPrice: 500, yearlyPrice: 5000 }),
    );
  });

  it('refuses a tier without a name or with a price that is not whole cents', async () => {
    const res = await fetch(`${stack.app.url}/api/admin/tiers`, {
      method: 'POST',
      headers: json(admin),
      body: JSON.stringify({ name: 'Patron', monthlyPrice: 4.5, yearlyPrice: 100 }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Prices are whole cents above zero');
  });

  it('edits and archives a tier; only admins write tiers', async () => {
    const made = await createTierViaApi(stack.app, admin, {
      name: 'Old',
      monthlyPrice: 100,
      yearlyPrice: 1000,
    });
    const put = await fetch(`${stack.app.url}/api/admin/tiers/${made.id}`, {
      method: 'PUT',
      headers: json(admin),
      body: JSON.stringify({ name: 'Old', monthlyPrice: 100, yearlyPrice: 1000, active: false }),
    });
    expect((await put.json()).tier.active).toBe(false);
    const { tiers } = await (await fetch(`${stack.app.url}/api/tiers`)).json();
    expect(tiers.map((t: { id: number }) => t.id)).not.toContain(made.id);
    const reader = await signedInSession(stack.app);
    const refused = await fetch(`${stack.app.url}/api/admin/tiers`, {
      method: 'POST',
      headers: json(reader.headers),
      body: JSON.stringify({ name: 'Mine', monthlyPrice: 1, yearlyPrice: 1 }),
    });
    expect(refused.status).toBe(403);
    const deleted = await fetch(`${stack.app.url}/api/admin/tiers/${made.id}`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(deleted.status).toBe(204);
  });
});

describe('subscribing', () => {
  it('makes a free member paid through Checkout in subscription mode and the webhook', async () => {
    const reader = await signedInSession(stack.app);
    expect(await membershipOf(stack.app, reader.headers)).toMatchObject({ status: 'free', tierId: null });
    const res = await fetch(`${stack.app.url}/api/members?action=subscribe`, {
      method: 'POST',
      headers: json(reader.headers),
      body: JSON.stringify({ tierId: tier.id, interval: 'year' }),
    });
    const { paymentUrl } = await res.json();
    const session = stack.stripe.sessions.get(paymentUrl.split('/pay/')[1]);
    expect(session).toMatchObject({
      mode: 'subscription',
      amount_total: 5000,
      currency: 'usd',
      client_reference_id: String(reader.user.id),
      interval: 'year',
      metadata: { userId: String(reader.user.id), tierId: String(tier.id), interval: 'year' },
    });
    expect(stack.stripe.customers.get(String(session?.customer))?.email).toBe(reader.user.email);
    const paid = stack.stripe.complete(String(session?.id));
    expect(
      (await deliverSigned(stack.app, stack.stripe.event('checkout.session.completed', paid), SECRET)).body
        .outcome,
    ).toBe('applied');
    const membership = await membershipOf(stack.app, reader.headers);
    expect(membership).toMatchObject({
      status: 'paid',
      tierId: tier.id,
      interval: 'year',
      cancelAtPeriodEnd: false,
    });
    expect(Date.parse(membership.currentPeriodEnd)).toBeGreaterThan(Date.now() + 300 * 86_400_000);
  });

  it('makes one Stripe customer for parallel subscribe clicks', async () => {
    const reader = await signedInSession(stack.app);
    const click = () =>
      fetch(`${stack.app.url}/api/members?action=subscribe`, {
        method: 'POST',
        headers: json(reader.headers),
        body: JSON.stringify({ tierId: tier.id, interval: 'month' }),
      });
    const answers = await Promise.all([click(), click(), click()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const mine = [...stack.stripe.customers.values()].filter((c) => c.email === reader.user.email);
    expect(mine).toHaveLength(1);
  });

  it('credits a paid sign-up to the post whose paywall it came from', async () => {
    const created = await fetch(`${stack.app.url}/api/posts`, {
      method: 'POST',
      headers: json(admin),
      body: JSON.stringify({
        title: 'The converting post',
        excerpt: 'It converts',
        category: 'Business',
        status: 'published',
        visibility: 'paid',
        content: 'Open.\n\n[paywall]\n\nClosed.',
      }),
    });
    const { post } = await created.json();
    const reader = await signedInSession(stack.app);
    const res = await fetch(`${stack.app.url}/api/members?action=subscribe`, {
      method: 'POST',
      headers: json(reader.headers),
      body: JSON.stringify({ tierId: tier.id, interval: 'month', returnTo: `/post/${post.slug}` }),
    });
    const { paymentUrl } = await res.json();
    const session = stack.stripe.complete(paymentUrl.split('/pay/')[1]);
    expect(session.success_url).toBe(`${stack.app.url}/post/${post.slug}?membership=welcome`);
    await deliverSigned(stack.app, stack.stripe.event('checkout.session.completed', session), SECRET);
    const { history } = await (
      await fetch(`${stack.app.url}/api/admin/members/${reader.user.id}`, { headers: admin })
    ).json();
    expect(history).toEqual([
      expect.objectContaining({
        type: 'checkout.session.completed',
        status: 'paid',
        fromPost: { slug: post.slug, title: 'The converting post' },
      }),
    ]);
  });

  it('refuses an unknown tier, a bad interval and a reader who is not signed in', async () => {
    const reader = await signedInSession(stack.app);
    const post = (body: unknown, headers = json(reader.headers)) =>
      fetch(`${stack.app.url}/api/members?action=subscribe`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
    const unknown = await post({ tierId: 999_999, interval: 'month' });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe('This tier is not offered any more.');
    const badInterval = await post({ tierId: tier.id, interval: 'week' });
    expect(badInterval.status).toBe(400);
    expect((await badInterval.json()).message).toBe('Choose monthly or yearly');
    expect(
      (await post({ tierId: tier.id, interval: 'month' }, { 'content-type': 'application/json' })).status,
    ).toBe(401);
  });

  it('opens the billing portal for a paying member, and refuses one who never paid', async () => {
    const member = await paidMember(stack.app, stack.stripe, SECRET, tier.id);
    const res = await fetch(`${stack.app.url}/api/members?action=portal`, {
      method: 'POST',
      headers: member.headers,
    });
    const { url } = await res.json();
    expect(url).toMatch(new RegExp(`^${stack.stripe.url}/portal/bps_`));
    expect(stack.stripe.portalSessions.get(url.split('/portal/')[1])?.customer).toBe(member.session.customer);
    const never = await signedInSession(stack.app);
    const refused = await fetch(`${stack.app.url}/api/members?action=portal`, {
      method: 'POST',
      headers: never.headers,
    });
    expect(refused.status).toBe(409);
  });
});

describe('subscription webhooks', () => {
  it('changes a membership once for the same event delivered 3 times', async () => {
    const member = await paidMember(stack.app, stack.stripe, SECRET, tier.id);
    const outcomes = await Promise.all(
      [1, 2, 3].map(() => deliverSigned(stack.app, member.completed, SECRET).then((r) => r.body.outcome)),
    );
    expect(outcomes).toEqual(['duplicate', 'duplicate', 'duplicate']);
    stack.stripe.subscriptions.get(member.subscriptionId)!.cancel_at_period_end = true;
    const updated = stack.stripe.event(
      'customer.subscription.updated',
      stack.stripe.subscriptions.get(member.subscriptionId),
    );
    const burst = await Promise.all(
      [1, 2, 3].map(() => deliverSigned(stack.app, updated, SECRET).then((r) => r.body.outcome)),
    );
    expect(burst.sort()).toEqual(['applied', 'duplicate', 'duplicate']);
    const history = await stack.app.services.db('membership_events').where({ user_id: member.user.id });
    expect(history.map((h) => h.type)).toEqual([
      'checkout.session.completed',
      'customer.subscription.updated',
    ]);
    expect(await membershipOf(stack.app, member.headers)).toMatchObject({
      status: 'paid',
      cancelAtPeriodEnd: true,
    });
  });

  it('ends in Stripe’s state when events come out of order', async () => {
    const member = await paidMember(stack.app, stack.stripe, SECRET, tier.id);
    const created = stack.stripe.event('customer.subscription.created', {
      ...stack.stripe.subscriptions.get(member.subscriptionId),
    });
    const ended = stack.stripe.event('customer.subscription.deleted', {
      ...stack.stripe.end(member.subscriptionId),
    });
    expect((await deliverSigned(stack.app, ended, SECRET)).body.outcome).toBe('applied');
    // The older event, late: it names an active subscription, but Stripe's own says it ended.
    expect((await deliverSigned(stack.app, created, SECRET)).body.outcome).toBe('ignored');
    expect(await membershipOf(stack.app, member.headers)).toMatchObject({ status: 'free' });
  });

  it('keeps a past-due member reading for the grace period, then makes them free', async () => {
    const member = await paidMember(stack.app, stack.stripe, SECRET, tier.id);
    stack.stripe.failRenewal(member.subscriptionId);
    const failed = stack.stripe.event(
      'invoice.payment_failed',
      stack.stripe.invoice(member.subscriptionId, false),
    );
    expect((await deliverSigned(stack.app, failed, SECRET)).body.outcome).toBe('applied');
    expect(await membershipOf(stack.app, member.headers)).toMatchObject({
      status: 'past_due',
      tierId: tier.id,
    });
    await stack.app.services
      .db('memberships')
      .where({ user_id: member.user.id })
      .update({ past_due_since: new Date(Date.now() - 8 * 86_400_000) });
    expect(await membershipOf(stack.app, member.headers)).toMatchObject({ status: 'free' });
    stack.stripe.renew(member.subscriptionId);
    const paid = stack.stripe.event('invoice.paid', stack.stripe.invoice(member.subscriptionId, true));
    expect((await deliverSigned(stack.app, paid, SECRET)).body.outcome).toBe('applied');
    expect(await membershipOf(stack.app, member.headers)).toMatchObject({ status: 'paid' });
  });

  it('refuses an event whose subscription names another member, and changes nothing', async () => {
    const member = await paidMember(stack.app, stack.stripe, SECRET, tier.id);
    const other = await signedInSession(stack.app);
    const forged = stack.stripe.subscribe(
      String(member.session.customer),
      { currency: 'usd', unit_amount: 500, interval: 'month' },
      {
        userId: String(other.user.id),
        tierId: String(tier.id),
      },
    );
    const res = await deliverSigned(
      stack.app,
      stack.stripe.event('customer.subscription.created', forged),
      SECRET,
    );
    expect(res.body).toMatchObject({
      outcome: 'refused',
      message: 'The subscription belongs to another member.',
    });
    const cheap = stack.stripe.subscribe(
      String(member.session.customer),
      { currency: 'usd', unit_amount: 1, interval: 'month' },
      {
        userId: String(member.user.id),
        tierId: String(tier.id),
      },
    );
    const underpaid = await deliverSigned(
      stack.app,
      stack.stripe.event('customer.subscription.created', cheap),
      SECRET,
    );
    expect(underpaid.body).toMatchObject({
      outcome: 'refused',
      message: 'The subscription’s price is not its tier’s.',
    });
    expect(await membershipOf(stack.app, other.headers)).toMatchObject({ status: 'free' });
    expect(await membershipOf(stack.app, member.headers)).toMatchObject({
      status: 'paid',
      interval: 'month',
    });
  });
});

describe('admin', () => {
  it('gives a complimentary membership with an end date, and counts members and MRR', async () => {
    const before = (await (await fetch(`${stack.app.url}/api/admin/members`, { headers: admin })).json())
      .totals;
    const reader = await signedInSession(stack.app);
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const res = await fetch(`${stack.app.url}/api/admin/members/${reader.user.id}?action=comp`, {
      method: 'POST',
      headers: json(admin),
      body: JSON.stringify({ tierId: tier.id, until }),
    });
    expect((await res.json()).membership).toMatchObject({
      status: 'comped',
      tierId: tier.id,
      currentPeriodEnd: until,
    });
    await paidMember(stack.app, stack.stripe, SECRET, tier.id, 'year');
    const after = (await (await fetch(`${stack.app.url}/api/admin/members`, { headers: admin })).json())
      .totals;
    expect(after.comped).toBe(before.comped + 1);
    expect(after.paid).toBe(before.paid + 1);
    // A yearly 5000 counts as a twelfth; the totals are rounded to the cent.
    expect(Math.abs(after.mrr - before.mrr - 5000 / 12)).toBeLessThan(1);
    const comped = await (
      await fetch(`${stack.app.url}/api/admin/members?status=comped`, { headers: admin })
    ).json();
    expect(comped.members.map((m: { userId: number }) => m.userId)).toContain(reader.user.id);
    const history = await (
      await fetch(`${stack.app.url}/api/admin/members/${reader.user.id}`, { headers: admin })
    ).json();
    expect(history.history).toEqual([
      expect.objectContaining({ type: 'comped', status: 'comped', tierId: tier.id }),
    ]);
  });

  it('shows members, their totals and the tiers on the admin’s Members tab, filtered by status', async () => {
    const comped = await signedInSession(stack.app);
    const free = await signedInSession(stack.app);
    await fetch(`${stack.app.url}/api/admin/members/${comped.user.id}?action=comp`, {
      method: 'POST',
      headers: json(admin),
      body: JSON.stringify({ tierId: tier.id }),
    });
    const page = await (
      await fetch(`${stack.app.url}/admin?tab=members&status=comped`, { headers: admin })
    ).text();
    expect(page).toContain(comped.user.email);
    expect(page).not.toContain(free.user.email);
    expect(page).toMatch(/MRR: \$[\d,]+\.\d\d/);
    expect(page).toContain('Supporter: $5.00 a month · $50.00 a year');
    const all = await (
      await fetch(`${stack.app.url}/admin?tab=members&q=${free.user.email}`, { headers: admin })
    ).text();
    expect(all).toContain(free.user.email);
  });

  it('counts the last 30 days’ paid sign-ups and cancellations on the dashboard', async () => {
    const flows = async () => {
      const page = await (await fetch(`${stack.app.url}/admin?tab=dashboard`, { headers: admin })).text();
      const found = /\+(\d+) paid, −(\d+) cancelled in the last 30 days/.exec(page);
      if (!found) throw new Error('no member flows on the dashboard');
      return { started: Number(found[1]), cancelled: Number(found[2]) };
    };
    const before = await flows();
    const member = await paidMember(stack.app, stack.stripe, SECRET, tier.id);
    await paidMember(stack.app, stack.stripe, SECRET, tier.id);
    const ended = stack.stripe.event('customer.subscription.deleted', {
      ...stack.stripe.end(member.subscriptionId),
    });
    expect((await deliverSigned(stack.app, ended, SECRET)).body.outcome).toBe('applied');
    expect(await flows()).toEqual({ started: before.started + 2, cancelled: before.cancelled + 1 });
  });

  it('ends a complimentary membership: the member is free, counted so, and the paid post closes to them', async () => {
    const created = await fetch(`${stack.app.url}/api/posts`, {
      method: 'POST',
      headers: json(admin),
      body: JSON.stringify({
        title: 'A comped read',
        excerpt: 'For supporters',
        category: 'Business',
        status: 'published',
        visibility: 'paid',
        content: 'Open to all.\n\n[paywall]\n\nOnly for supporters: the quince ledger.',
      }),
    });
    const { post } = await created.json();
    const reader = await signedInSession(stack.app);
    const page = async () =>
      (await fetch(`${stack.app.url}/post/${post.slug}`, { headers: reader.headers })).text();
    const totals = async () =>
      (await (await fetch(`${stack.app.url}/api/admin/members`, { headers: admin })).json()).totals;
    const endComp = (userId: number) =>
      fetch(`${stack.app.url}/api/admin/members/${userId}?action=end-comp`, {
        method: 'POST',
        headers: admin,
      });
    await fetch(`${stack.app.url}/api/admin/members/${reader.user.id}?action=comp`, {
      method: 'POST',
      headers: json(admin),
      body: JSON.stringify({ tierId: tier.id }),
    });
    expect(await page()).toContain('the quince ledger');
    const before = await totals();

    const res = await endComp(reader.user.id);
    expect(res.status).toBe(200);
    expect((await res.json()).membership).toMatchObject({ status: 'free', tierId: null });
    expect(await membershipOf(stack.app, reader.headers)).toMatchObject({ status: 'free' });
    const after = await totals();
    expect(after).toMatchObject({ comped: before.comped - 1, free: before.free + 1, mrr: before.mrr });
    const closed = await page();
    expect(closed).not.toContain('the quince ledger');
    expect(closed).toContain('This post is for paying members');
    const { history } = await (
      await fetch(`${stack.app.url}/api/admin/members/${reader.user.id}`, { headers: admin })
    ).json();
    expect(history.map((e: { type: string; status: string }) => [e.type, e.status])).toEqual([
      ['comp ended', 'free'],
      ['comped', 'comped'],
    ]);

    // Once: ending it again, or for someone who never had one, is refused and records nothing.
    const again = await endComp(reader.user.id);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe('This member has no complimentary membership');
    expect(await stack.app.services.db('membership_events').where({ user_id: reader.user.id })).toHaveLength(
      2,
    );
    const unknown = await endComp(999_999);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe('Member not found');
  });

  it('never ends a paid subscription as a comp', async () => {
    const member = await paidMember(stack.app, stack.stripe, SECRET, tier.id);
    const res = await fetch(`${stack.app.url}/api/admin/members/${member.user.id}?action=end-comp`, {
      method: 'POST',
      headers: admin,
    });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe('This member has no complimentary membership');
    expect(await membershipOf(stack.app, member.headers)).toMatchObject({ status: 'paid', tierId: tier.id });
    expect(stack.stripe.subscriptions.get(member.subscriptionId)?.status).toBe('active');
  });

  it('ends a comp once when two admins end it at the same moment', async () => {
    const reader = await signedInSession(stack.app);
    await fetch(`${stack.app.url}/api/admin/members/${reader.user.id}?action=comp`, {
      method: 'POST',
      headers: json(admin),
      body: JSON.stringify({ tierId: tier.id }),
    });
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        fetch(`${stack.app.url}/api/admin/members/${reader.user.id}?action=end-comp`, {
          method: 'POST',
          headers: admin,
        }).then((r) => r.status),
      ),
    );
    expect(answers.sort()).toEqual([200, 409, 409]);
    const ends = await stack.app.services
      .db('membership_events')
      .where({ user_id: reader.user.id, type: 'comp ended' });
    expect(ends).toHaveLength(1);
  });

  it('names the member in the panel opened while the list is filtered to another status', async () => {
    const reader = await signedInSession(stack.app, { firstName: 'Outside', lastName: 'Filter' });
    const page = await (
      await fetch(`${stack.app.url}/admin?tab=members&status=comped&member=${reader.user.id}`, {
        headers: admin,
      })
    ).text();
    expect(page).toContain(`<h2 id="member-heading">${reader.user.email}</h2>`);
    expect(page).toContain('Outside Filter');
    expect(page).not.toContain(`Member ${reader.user.id}`);
  });

  it('refuses a comp that ends in the past', async () => {
    const reader = await signedInSession(stack.app);
    const res = await fetch(`${stack.app.url}/api/admin/members/${reader.user.id}?action=comp`, {
      method: 'POST',
      headers: json(admin),
      body: JSON.stringify({ tierId: tier.id, until: '2020-01-01' }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('The end date must be in the future');
  });
});
