import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { createDb, type Db } from '../../src/db/knex.ts';
import { migrateLatest } from '../../src/db/migrate.ts';

export const BENCH_DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? '.bench-data');
export const BENCH_PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55432);

/** The benchmark database: BENCH_DATABASE_URL, or an embedded PostgreSQL under .bench-data. */
export async function openBenchDatabase(): Promise<{ db: Db; url: string; stop: () => Promise<void> }> {
  let url = process.env.BENCH_DATABASE_URL;
  let stopPg = async () => {};
  if (!url) {
    const pg = await startEmbeddedPostgres({
      dataDir: BENCH_DATA_DIR,
      port: BENCH_PG_PORT,
      database: 'penstand_bench',
    });
    url = pg.url;
    stopPg = pg.stop;
  }
  const db = createDb(url, 4);
  await migrateLatest(db);
  return {
    db,
    url,
    async stop() {
      await db.destroy();
      await stopPg();
    },
  };
}
