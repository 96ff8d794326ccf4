import type { Db } from './knex.ts';

/** Error codes that mean "the database is unreachable", not "this query is wrong". */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
]);

export function isConnectionError(error: unknown): boolean {
  const err = error as { code?: string; name?: string; message?: string } | null;
  if (!err) return false;
  if (err.code && (CONNECTION_CODES.has(err.code) || err.code.startsWith('08'))) return true;
  // "ROLLBACK - Client has encountered a connection error…": a transaction cut off mid-way; "Client
  // was closed…": a pooled connection the server ended (a stopping PostgreSQL) handed out anyway.
  return /Connection terminated|connection ended unexpectedly|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/i.test(
    err.message ?? '',
  );
}

/**
 * No pooled connection came free in time: the database is busy (or this process is over its
 * pool), not gone. The request is refused with a 503, but the database is not marked down, or
 * one burst of load would refuse every request until the next probe. A database that stops
 * answering connections fails with a connection error instead (connectionTimeoutMillis).
 */
export function isPoolTimeout(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'KnexTimeoutError';
}

/**
 * Tracks whether PostgreSQL answers. A failed connection marks it down at once; while down,
 * requests are answered 503 straight away instead of waiting on the pool, and a probe every
 * half second brings it back up without a restart.
 */
export class DatabaseAvailability {
  private down = false;
  private probing: NodeJS.Timeout | null = null;
  private readonly db: Db;
  private readonly onChange: (up: boolean) => void;

  constructor(db: Db, onChange: (up: boolean) => void = () => {}) {
    this.db = db;
    this.onChange = onChange;
    db.on('query-error', (error: unknown) => {
      if (isConnectionError(error)) this.markDown();
    });
  }

  get isDown(): boolean {
    return this.down;
  }

  markDown(): void {
    if (this.down) return;
    this.down = true;
    this.onChange(false);
    this.probing = setInterval(() => void this.probe(), 500);
    this.probing.unref();
  }

  /** Asks the database now (after an unexplained failure); marks it down when it does not answer. */
  async check(): Promise<boolean> {
    if (this.down) return false;
    try {
      await this.db.raw('SELECT 1').timeout(1_000);
      return true;
    } catch (error) {
      if (isConnectionError(error)) {
        this.markDown();
        return false;
      }
      // A busy pool or a slow answer: unavailable for this request, not down.
      return !(isPoolTimeout(error) || (error as Error).name === 'TimeoutError');
    }
  }

  stop(): void {
    if (this.probing) clearInterval(this.probing);
    this.probing = null;
  }

  private async probe(): Promise<void> {
    try {
      await this.db.raw('SELECT 1').timeout(1_000);
      this.stop();
      this.down = false;
      this.onChange(true);
    } catch {
      // still down; the next probe tries again
    }
  }
}
