import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { createDb, type Db } from '../../src/db/knex.ts';
import { migrateLatest } from '../../src/db/migrate.ts';

export const BENCH_DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? '.bench-data');
export const BENCH_PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55432);

/**
 * The benchmark database: BENCH_DATABASE_URL, or an embedded PostgreSQL under .bench-data, started
 * with `settings` (for BENCH_DATABASE_URL they are the operator's to set).
 */
export async function openBenchDatabase(
  settings?: Record<string, string>,
): Promise<{ db: Db; url: string; stop: () => Promise<void> }> {
  let url = process.env.BENCH_DATABASE_URL;
  let stopPg = async () => {};
  if (!url) {
    const pg = await startEmbeddedPostgres({
      dataDir: BENCH_DATA_DIR,
      port: BENCH_PG_PORT,
      database: 'penstand_bench',
      settings,
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

/**
 * The CPU (ms) the benchmark database's processes have used so far (NaN when not embedded here):
 * in all, and the part of its background processes (autovacuum, WAL writer, checkpointer), which
 * serve no one connection. The background part counts live processes only: an autovacuum worker
 * that ends between two readings takes its CPU out of it.
 */
export async function databaseCpu(): Promise<{ total: number; background: number }> {
  const postmaster = Number(
    (await readFile(path.join(BENCH_DATA_DIR, 'pg', 'postmaster.pid'), 'utf8').catch(() => '')).split(
      '\n',
    )[0],
  );
  if (!postmaster) return { total: Number.NaN, background: Number.NaN };
  let ticks = 0;
  let background = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // Fields after the command's closing parenthesis: state ppid … utime stime (the 12th and 13th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pid) !== postmaster && Number(fields[1]) !== postmaster) continue;
    const used = Number(fields[11]) + Number(fields[12]);
    // The postmaster's children that ended (an autovacuum worker, a closed connection) took their
    // CPU out of the live sum: it is in the postmaster's cutime and cstime once they were reaped.
    ticks += Number(pid) === postmaster ? used + Number(fields[13]) + Number(fields[14]) : used;
    // A client's backend shows its address in its title: "postgres: user db 127.0.0.1(port) idle",
    // or "[local]" over the Unix socket.
    const title = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (!title.includes('(') && !title.includes('[local]')) background += used;
  }
  return { total: (ticks * 1000) / 100, background: (background * 1000) / 100 };
}

/** The CPU (ms) the benchmark database's processes have used so far, or NaN when not embedded here. */
export async function databaseCpuMs(): Promise<number> {
  return (await databaseCpu()).total;
}
