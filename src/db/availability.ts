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
  if (err.name === 'KnexTimeoutError') return true;
  // "ROLLBACK - Client has encountered a connection error…": a transaction cut off mid-way.
  return /Connection terminated|connection ended unexpectedly|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    err.message ?? '',
  );
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
      if (
        isConnectionError(error) ||
        (error as Error).name === 'KnexTimeoutError' ||
        (error as Error).name === 'TimeoutError'
      ) {
        this.markDown();
        return false;
      }
      return true;
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
