import path from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { listen, type WebServer } from '../../src/server/http.ts';
import { createLogger } from '../../src/server/logger.ts';
import { startRuntime } from '../../src/server/runtime.ts';
import type { AppServices } from '../../src/server/services.ts';
import { createApp } from '../../src/web/app.ts';
import { startWorkers, type Workers } from '../../workers/index.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export type TestApp = {
  url: string;
  services: AppServices;
  database: TestDatabase;
  /** Every log line the app wrote, as parsed JSON. */
  logs: Record<string, unknown>[];
  /** The raw log text, for greps that must find nothing. */
  logText: () => string;
  web: WebServer;
  workers: Workers | undefined;
  close: () => Promise<void>;
};

export type TestAppOptions = {
  queue?: 'postgres' | 'redis';
  withWorker?: boolean;
  env?: Record<string, string>;
  database?: TestDatabase;
};

let cachedBuild: Promise<ServerBuild> | undefined;

/** The production build the test apps serve (built by `npm test` before vitest starts). */
export function loadBuild(): Promise<ServerBuild> {
  cachedBuild ??= import(pathToFileURL(path.join(inject('buildDir'), 'server/index.js')).href);
  return cachedBuild;
}

const TEARDOWN_STEP_MS = 30_000;

/**
 * A teardown step that outlasts its deadline is reported on stderr and left behind, so one stuck
 * step cannot time out the file's hook; dropping the database WITH (FORCE) ends what it holds.
 */
async function boundedStep(name: string, step: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<'overdue'>((resolve) => {
    timer = setTimeout(() => resolve('overdue'), TEARDOWN_STEP_MS);
  });
  const outcome = await Promise.race([step().then(() => 'done' as const), overdue]).finally(() =>
    clearTimeout(timer),
  );
  if (outcome === 'overdue')
    process.stderr.write(`test app teardown: ${name} still running after ${TEARDOWN_STEP_MS} ms; going on\n`);
}

/** The production build served in process on a free port, on its own fresh database. */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const database = opts.database ?? (await createTestDatabase());
  const redisUrl = inject('redisUrl');
  if (opts.queue === 'redis' && !redisUrl)
    throw new Error('redis-server is not installed: run npm test, which installs it');
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DATABASE_URL: database.url,
    DATA_DIR: path.resolve('.test-data', database.name),
    ...(opts.queue === 'redis' && redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...opts.env,
  });
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  const log = createLogger({ level: config.logLevel, destination });
  const runtime = await startRuntime(config, log);
  const build = await loadBuild();
  const app = createApp(runtime.services, { kind: 'build', buildDir: inject('buildDir'), build });
  const web = await listen(app, '127.0.0.1', 0);
  const url = `http://127.0.0.1:${web.port}`;
  runtime.services.publicUrl = url;
  const workers = opts.withWorker ? startWorkers(runtime.services) : undefined;
  return {
    url,
    services: runtime.services,
    database,
    get logs() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText: () => lines.join('\n'),
    web,
    workers,
    async close() {
      await boundedStep('web.close', () => web.close());
      if (workers) await boundedStep('workers.close', () => workers.close());
      await boundedStep('runtime.close', () => runtime.close());
      if (!opts.database) await database.drop();
    },
  };
}
