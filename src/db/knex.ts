import knex, { type Knex } from 'knex';
import pg from 'pg';

// Return bigint counts and ids as numbers: ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export type Db = Knex;

type DbLog = { warn: (message: string) => void; error: (message: string) => void };

/** log receives knex's own warnings (lost connections while the database is away, for instance). */
export function createDb(connectionString: string, poolMax = 10, log?: DbLog): Db {
  const db = knex({
    client: 'pg',
    connection: { connectionString, application_name: 'penstand', statement_timeout: 15_000 },
    pool: { min: 0, max: poolMax, acquireTimeoutMillis: 5_000 },
    acquireConnectionTimeout: 5_000,
    log: {
      warn: (m: unknown) => log?.warn(String(m)),
      error: (m: unknown) => log?.error(String(m)),
      deprecate: () => {},
      debug: () => {},
    },
  });
  return db;
}

/** Runs fn inside one transaction; the transaction is passed down explicitly. */
export function withTransaction<T>(db: Db, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}
