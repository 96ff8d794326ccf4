import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../src/import/import.ts';
import { signedInSession } from '../support/auth.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';
import { GHOST_MEMBERS_FIXTURE } from '../support/import-fixtures.ts';
import { createTierViaApi } from '../support/members.ts';
import { deliverSigned, setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';

const SECRET = 'whsec_import_members';
const stack = setUpCardPaymentsApp(SECRET);
let tierId: number;
let subscriptionId: string;
// The Stripe customer Ghost's members export names for paying@example.net.
const CUSTOMER = 'cus_PxQ1a2b3c4d5e6';

beforeAll(async () => {
  const admin = (await signedInSession(stack.app, { role: 'admin' })).headers;
  ({ id: tierId } = await createTierViaApi(stack.app, admin, {
    name: 'Supporter',
    monthlyPrice: 500,
    yearlyPrice: 5000,
  }));
  subscriptionId = stack.stripe.subscribe(CUSTOMER, {
    currency: 'usd',
    unit_amount: 500,
    interval: 'month',
  }).id;
});

const memberships = () =>
  stack.app.services
    .db('users as u')
    .leftJoin('memberships as m', 'm.user_id', 'u.id')
    .whereIn('u.email', [
      'reader.one@example.com',
      'quiet@example.com',
      'friend@example.org',
      'paying@example.net',
    ])
    .orderBy('u.email')
    .select(
      'u.email',
      'u.password_hash',
      'u.email_verified',
      'm.status',
      'm.tier_id',
      'm.interval',
      'm.stripe_customer_id',
      'm.stripe_subscription_id',
    );

describe('a Ghost members export makes members', () => {
  it('counts everything in the dry run, writes nothing and changes nothing at Stripe', async () => {
    const { db } = stack.app.services;
    const tables = await watchedTables(db);
    const before = await fingerprint(db, tables);
    const writes = stack.stripe.requests.length;
    const dry = await runImport(stack.app.services, GHOST_MEMBERS_FIXTURE, { dryRun: true });
    expect(dry.members).toEqual({ created: 5, existing: 0, comped: 1, linked: 1, notPlaced: 0 });
    expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
    expect(stack.stripe.requests.slice(writes).map((r) => r.method)).not.toContain('POST');
    expect(stack.stripe.subscriptions.get(subscriptionId)?.metadata).toEqual({});
  });

  it('makes accounts without passwords, comps the complimentary one and links the paying one to Stripe', async () => {
    const report = await runImport(stack.app.services, GHOST_MEMBERS_FIXTURE);
    expect(report.members).toEqual({ created: 5, existing: 0, comped: 1, linked: 1, notPlaced: 0 });
    const rows = await memberships();
    expect(rows.map((r) => [r.email, r.password_hash, r.email_verified])).toEqual([
      ['friend@example.org', null, true],
      ['paying@example.net', null, true],
      ['quiet@example.com', null, true],
      ['reader.one@example.com', null, true],
    ]);
    expect(rows.map((r) => [r.email, r.status, r.tier_id, r.interval])).toEqual([
      ['friend@example.org', 'comped', tierId, null],
      ['paying@example.net', 'paid', tierId, 'month'],
      ['quiet@example.com', null, null, null],
      ['reader.one@example.com', null, null, null],
    ]);
    const paying = rows[1];
    expect([paying.stripe_customer_id, paying.stripe_subscription_id]).toEqual([CUSTOMER, subscriptionId]);
    // The subscription now names the member and the tier, as the webhook checks; nothing was charged.
    const { db } = stack.app.services;
    const payingId = (await db('users').where({ email: 'paying@example.net' }).first('id')).id;
    expect(stack.stripe.subscriptions.get(subscriptionId)?.metadata).toEqual({
      userId: String(payingId),
      tierId: String(tierId),
    });
    expect(stack.stripe.sessions.size).toBe(0);
    // The reader who turned emails off is a member, still not a newsletter subscriber.
    expect(await db('newsletter_subscribers').where({ email: 'quiet@example.com' }).first()).toBeUndefined();
  });

  it("applies the linked subscription's later events from Stripe", async () => {
    const ended = stack.stripe.end(subscriptionId);
    const res = await deliverSigned(
      stack.app,
      stack.stripe.event('customer.subscription.deleted', ended),
      SECRET,
    );
    expect(res.status).toBe(200);
    const paying = (await memberships()).find((r) => r.email === 'paying@example.net');
    expect(paying?.status).toBe('free');
  });

  it('changes nothing the second time', async () => {
    const { db } = stack.app.services;
    const tables = await watchedTables(db);
    const before = await fingerprint(db, tables);
    const again = await runImport(stack.app.services, GHOST_MEMBERS_FIXTURE);
    // The paying member's subscription ended since: nothing to link, they stay free.
    expect(again.members).toEqual({ created: 0, existing: 5, comped: 0, linked: 0, notPlaced: 1 });
    expect(again.warnings).toContain(
      `member paying@example.net: paying on the old site, not linked: Stripe has no active subscription for ${CUSTOMER}; a free member here`,
    );
    expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
  });
});

describe('member lists imported at the same time', () => {
  it('make one account and one comp per reader', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'penstand-members-')), 'members.csv');
    const emails = Array.from({ length: 8 }, (_, i) => `burst${i}@example.com`);
    writeFileSync(
      file,
      `email,name,complimentary_plan\n${emails.map((e, i) => `${e},Burst ${i},${i % 2 === 0}`).join('\n')}\n`,
    );
    const reports = await Promise.all([1, 2, 3].map(() => runImport(stack.app.services, file)));
    expect(reports.reduce((n, r) => n + (r.members?.created ?? 0), 0)).toBe(8);
    const { db } = stack.app.services;
    const rows = await db('users as u')
      .leftJoin('memberships as m', 'm.user_id', 'u.id')
      .whereIn('u.email', emails)
      .orderBy('u.email')
      .select('u.email', 'm.status');
    expect(rows.map((r) => [r.email, r.status])).toEqual(
      emails.map((e, i) => [e, i % 2 === 0 ? 'comped' : null]),
    );
    const history = await db('membership_events as e')
      .join('users as u', 'u.id', 'e.user_id')
      .whereIn('u.email', emails)
      .count({ n: '*' });
    expect(Number(history[0].n)).toBe(4);
  });
});
