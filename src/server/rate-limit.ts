import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/knex.ts';
import { HttpError } from './middleware.ts';

export type RateLimit = { consume: (key: string) => Promise<void> };

/**
 * A fixed-window limit kept in PostgreSQL (table rate_limits), so every web process shares it.
 * consume throws a 429 HttpError with Retry-After once the key has used its points.
 */
export function createRateLimit(
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
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          throw new HttpError(429, opts.message, {
            'Retry-After': String(Math.max(1, Math.ceil(error.msBeforeNext / 1000))),
          });
        }
        throw error;
      }
    },
  };
}
