import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/server/logger.ts';
import { startRuntime } from '../../src/server/runtime.ts';
import { createApp } from '../../src/web/app.ts';
import { BENCH_DATA_DIR } from './database.ts';

/**
 * The production build's app in this process, on the benchmark database, not yet listening: for
 * the scripts that count or time what one request costs (`npm run build` first).
 */
export async function benchApp(url: string, env: Record<string, string> = {}) {
  const config = loadConfig({
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: url,
    SEED_DEMO: 'false',
    DATA_DIR: path.join(BENCH_DATA_DIR, 'app'),
    ...env,
  });
  const runtime = await startRuntime(config, createLogger({ level: 'warn' }));
  const buildDir = path.resolve('build');
  const build = (await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href)) as ServerBuild;
  return { app: createApp(runtime.services, { kind: 'build', buildDir, build }), runtime };
}
