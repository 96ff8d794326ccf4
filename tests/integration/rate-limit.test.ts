import { afterAll, beforeAll, expect, it } from 'vitest';
import { rateLimit, sweepExpiredRateLimits } from '../../src/kernel/rate-limit.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { refusal } from '../support/refusal.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

it('sweeps the counters of ended windows and keeps those still counting', async () => {
  const { db } = database;
  // The checkout limit, with its points set as CHECKOUT_RATE_LIMIT sets them.
  const limit = rateLimit(db, 'checkout', 2);
  await limit.consume('10.0.0.1');
  await db('rate_limits').insert([
    { key: 'checkout:10.0.0.2', points: 1, expire: Date.now() - 1_000 },
    { key: 'checkout:10.0.0.3', points: 2, expire: Date.now() - 60_000 },
    { key: 'forever:10.0.0.4', points: 1, expire: null },
  ]);

  expect(await sweepExpiredRateLimits(db)).toBe(2);
  const left = await db('rate_limits').orderBy('key').pluck('key');
  expect(left).toEqual(['checkout:10.0.0.1', 'forever:10.0.0.4']);
  // The live counter still counts: one point used, one left, then the limit.
  await limit.consume('10.0.0.1');
  expect(await refusal(limit.consume('10.0.0.1'))).toMatchObject({ status: 429 });
});

it('counts a key as long as an email may be (254 characters) like any other', async () => {
  const limit = rateLimit(database.db, 'orderLookupEmail', 2);
  const email = `${'a'.repeat(64)}@${'b'.repeat(185)}.example`.slice(0, 254);
  await limit.consume(email);
  await limit.refund(email);
  await limit.consume(email);
  await limit.consume(email);
  expect(await refusal(limit.consume(email))).toMatchObject({ status: 429 });
  await expect(limit.consume(`${email.slice(0, -1)}x`)).resolves.toBeUndefined();
});
