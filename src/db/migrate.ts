import { type Db, MIGRATIONS } from './knex.ts';

// Any constant works; it only has to be the same in every process of one deployment.
const MIGRATION_LOCK = 726_017_001;

/**
 * Runs pending migrations. A session-level advisory lock makes two processes starting
 * together take turns instead of racing.
 */
export async function migrateLatest(db: Db): Promise<string[]> {
  const client = await db.client.acquireConnection();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const [, applied] = await db.migrate.latest(MIGRATIONS);
    return applied as string[];
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await db.client.releaseConnection(client);
  }
}
