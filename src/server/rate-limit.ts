import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/knex.ts';
import { HttpError } from './middleware.ts';

export type RateLimit = {
  consume: (key: string) => Promise<void>;
  /** Throws the 429 when the key has already used its points, without using one. */
  check: (key: string) => Promise<void>;
  reset: (key: string) => Promise<void>;
};

/**
 * A fixed-window limit kept in PostgreSQL (table rate_limits), so every web process shares it.
 * consume throws a 429 HttpError with Retry-After once the key has used its points.
 */
const limits = new WeakMap<Db, Map<string, RateLimit>>();

export function createRateLimit(
  db: Db,
  opts: { keyPrefix: string; points: number; durationSeconds: number; message: string },
): RateLimit {
  // One limiter per database and prefix, however often a request handler asks for it.
  let byPrefix = limits.get(db);
  if (!byPrefix) {
    byPrefix = new Map();
    limits.set(db, byPrefix);
  }
  const cacheKey = `${opts.keyPrefix}|${opts.points}|${opts.durationSeconds}`;
  const cached = byPrefix.get(cacheKey);
  if (cached) return cached;
  const limit = buildRateLimit(db, opts);
  byPrefix.set(cacheKey, limit);
  return limit;
}

/**
 * Deletes counters whose window has ended. Limits are per client address, so without this the
 * table keeps one row for every address that ever checked out, commented or signed in (the
 * limiter's own timer is off: the worker's maintenance sweep calls this instead).
 */
export async function sweepExpiredRateLimits(db: Db): Promise<number> {
  return db('rate_limits').where('expire', '<', Date.now()).delete();
}

function buildRateLimit(
  db: Db,
  opts: { keyPrefix: string; points: number; durationSeconds: number; message: string },
): RateLimit {
  const limiter = new RateLimiterPostgres({
    storeClient: db,
    storeType: 'knex',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix: opts.keyPrefix,
    points: opts.points,
    duration: opts.durationSeconds,
  });
  const tooMany = (msBeforeNext: number) =>
    new HttpError(429, opts.message, { 'Retry-After': String(Math.max(1, Math.ceil(msBeforeNext / 1000))) });
  return {
    async check(key) {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= opts.points) throw tooMany(state.msBeforeNext);
    },
    async reset(key) {
      await limiter.delete(key);
    },
    async consume(key) {
      try {
        await limiter.consume(key);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw tooMany(error.msBeforeNext);
        throw error;
      }
    },
  };
}
