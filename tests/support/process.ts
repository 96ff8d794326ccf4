import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { startWebCommand } from '../../scripts/start-web-command.ts';
import { startTestApp, type TestApp } from './app.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import { freePort } from './redis-server.ts';
import { startSmtpServer, type TestSmtp } from './smtp.ts';

/**
 * An empty DATA_DIR under .test-data for a process on the embedded database (the caller removes
 * it). Readable by all: embedded initdb runs as the postgres user when we are root.
 */
export async function emptyDataDir(prefix: string): Promise<string> {
  await mkdir('.test-data', { recursive: true });
  const dir = await mkdtemp(path.resolve('.test-data', `${prefix}-`));
  await chmod(dir, 0o755);
  return dir;
}

export type RunningProcess = {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first JSON log line whose msg matches. */
  waitForLog: (msg: string, timeoutMs?: number) => Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
};

/** Starts a Penstand entry point (e.g. src/web/start.ts) as its own Node 24 process. */
export function startProcess(
  entry: string,
  args: string[],
  env: Record<string, string>,
  nodeFlags: string[] = [],
): RunningProcess {
  const child = spawn(process.execPath, [...nodeFlags, entry, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/root',
      BUILD_DIR: process.env.BUILD_DIR ?? 'build',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async waitForLog(msg, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        for (const line of out.split('\n')) {
          if (!line.startsWith('{')) continue;
          const entry = JSON.parse(line) as Record<string, unknown>;
          if (entry.msg === msg) return entry;
        }
        if (child.exitCode !== null)
          throw new Error(`process exited (${child.exitCode}) before "${msg}":\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no "${msg}" within ${timeoutMs} ms:\n${out}`);
    },
  };
}

/**
 * Starts the web process as `npm run start:web` does (its V8 flags included) on a free loopback
 * port and waits until it answers.
 */
export async function startWebProcess(
  env: Record<string, string>,
  opts: { args?: string[]; port?: number } = {},
): Promise<RunningProcess & { url: string }> {
  const port = opts.port ?? (await freePort());
  const { entry, nodeFlags } = startWebCommand();
  const web = startProcess(
    entry,
    opts.args ?? [],
    { NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), ...env },
    nodeFlags,
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    // A process that accepts but does not answer is asked again, not waited on for good.
    const up = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { ...web, url };
    if (web.child.exitCode !== null) throw new Error(`web process exited:\n${web.output()}`);
    if (Date.now() > deadline) throw new Error(`web process not healthy within 90 s:\n${web.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export type WorkerlessApp = {
  app: TestApp;
  smtp: TestSmtp;
  database: TestDatabase;
  /** A worker process on the app's database, mailing to its SMTP server. */
  startWorker: () => RunningProcess;
  /** Kills the last worker started, then stops the app and the SMTP server and drops the database. */
  close: () => Promise<void>;
};

/**
 * For a test that kills worker processes: a web instance without workers (the jobs it queues wait
 * in the outbox) on its own database, mailing to an SMTP server in process.
 */
export async function startWorkerlessApp(workerEnv: Record<string, string> = {}): Promise<WorkerlessApp> {
  const smtp = await startSmtpServer();
  const database = await createTestDatabase();
  const app = await startTestApp({ database }).catch(async (error) => {
    await smtp.close();
    await database.drop();
    throw error;
  });
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'info',
    ...workerEnv,
  };
  let worker: RunningProcess | undefined;
  return {
    app,
    smtp,
    database,
    startWorker: () => {
      worker = startProcess('src/cli/worker.ts', [], env);
      return worker;
    },
    close: async () => {
      worker?.child.kill('SIGKILL');
      await app.close();
      await smtp.close();
      await database.drop();
    },
  };
}
