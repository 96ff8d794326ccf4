import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRateLimit, sweepExpiredRateLimits } from '../../src/server/rate-limit.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

it('sweeps the counters of ended windows and keeps those still counting', async () => {
  const { db } = database;
  const limit = createRateLimit(db, {
    keyPrefix: 'sweep',
    points: 2,
    durationSeconds: 60,
    message: 'Slow down',
  });
  await limit.consume('10.0.0.1');
  await db('rate_limits').insert([
    { key: 'sweep:10.0.0.2', points: 1, expire: Date.now() - 1_000 },
    { key: 'sweep:10.0.0.3', points: 2, expire: Date.now() - 60_000 },
    { key: 'forever:10.0.0.4', points: 1, expire: null },
  ]);

  expect(await sweepExpiredRateLimits(db)).toBe(2);
  const left = await db('rate_limits').orderBy('key').pluck('key');
  expect(left).toEqual(['forever:10.0.0.4', 'sweep:10.0.0.1']);
  // The live counter still counts: one point used, one left, then the limit.
  await limit.consume('10.0.0.1');
  await expect(limit.consume('10.0.0.1')).rejects.toMatchObject({ status: 429 });
});
