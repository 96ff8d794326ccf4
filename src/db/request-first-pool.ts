import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
// knex's own PostgreSQL client and pool (tarn's Pool), extended below; the package has no exports map.
import PgClient from 'knex/lib/dialects/postgres/index.js';
import { KnexPool } from 'knex/lib/pool.js';
import type { PendingOperation } from 'tarn/dist/PendingOperation.js';

/** Whether the request has had a connection before. */
type RequestTurn = { started: boolean };
/** Where an acquisition comes from: a request, and whether it opens a transaction for it. */
type PoolScope = { turn: RequestTurn; transaction: boolean };

const poolScopes = new AsyncLocalStorage<PoolScope>();

/** Runs a request's handling as one request for the pool (see RequestFirstPool). */
export function asPoolRequest<A extends unknown[], R>(handle: (...args: A) => R, ...args: A): R {
  return poolScopes.run({ turn: { started: false }, transaction: false }, handle, ...args);
}

type PendingAcquire = PendingOperation<unknown>;
/** The queued acquisitions of requests that had a connection before. */
const continuing = new WeakSet<PendingAcquire>();

/**
 * tarn's pool hands its connections out first come, first served. A checkout asks four times
 * (its session, its context, its rate limit, its transaction): when every connection is busy it
 * queued behind every request that arrived meanwhile, four times, and took four times an add to
 * cart's wait (in a drop, p50 213 ms against 57 ms; docs/performance.md). Here a request that had
 * a connection before goes ahead of those that have not (in their own order among themselves), so
 * what was started is finished first. A transaction still queues in arrival order: it holds its
 * connection across round trips, and when transactions contend for one row (a drop's stock) more
 * of them at the row at once made the limited drop slower (81% of the unlimited one, from 100%).
 * Outside a request (the worker, CLIs) the order is tarn's.
 */
class RequestFirstPool extends KnexPool {
  acquire() {
    const scope = poolScopes.getStore();
    const pending = super.acquire();
    if (!scope) return pending;
    if (scope.turn.started && !scope.transaction) {
      // Still queued (no connection was free): placed after the other continuing requests.
      const queue = this.pendingAcquires;
      const at = queue.lastIndexOf(pending);
      if (at > 0) {
        queue.splice(at, 1);
        const firstNew = queue.findIndex((other) => !continuing.has(other));
        queue.splice(firstNew === -1 ? queue.length : firstNew, 0, pending);
      }
      continuing.add(pending);
    }
    scope.turn.started = true;
    return pending;
  }
}

/** knex's PostgreSQL client with the request-first pool (knex's `client` option takes the class). */
export class RequestFirstPgClient extends PgClient {
  initializePool(config: Knex.Config = this.config) {
    this.pool = new RequestFirstPool(this.getPoolSettings(config.pool));
    this._ownsPool = true;
  }

  transaction(...args: Parameters<Knex.Client['transaction']>) {
    const scope = poolScopes.getStore();
    if (!scope) return super.transaction(...args);
    return poolScopes.run({ turn: scope.turn, transaction: true }, () => super.transaction(...args));
  }
}
