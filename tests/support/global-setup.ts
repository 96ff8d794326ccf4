import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { createDb } from '../../src/db/knex.ts';
import { migrateLatest } from '../../src/db/migrate.ts';
import { startRedisServer } from './redis-server.ts';

const TEMPLATE = 'penstand_template';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    redisUrl: string | null;
    buildDir: string;
  }
}

/**
 * One PostgreSQL for the whole run (embedded, or TEST_DATABASE_URL's server) with a migrated
 * template database that each test file clones; one Redis (REDIS_URL, or a redis-server we start).
 */
export default async function setup(project: TestProject) {
  const root = path.resolve('.test-data', `run-${process.pid}`);
  await mkdir(root, { recursive: true });
  let adminUrl: string;
  let stopPg: (() => Promise<void>) | undefined;
  if (process.env.TEST_DATABASE_URL) {
    adminUrl = process.env.TEST_DATABASE_URL;
  } else {
    const port = 55000 + (process.pid % 5000);
    const pg = await startEmbeddedPostgres({ dataDir: root, port, database: 'postgres', disposable: true });
    adminUrl = pg.url;
    stopPg = pg.stop;
  }
  const admin = createDb(adminUrl, 2);
  await admin.raw(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
  await admin.raw(`CREATE DATABASE ${TEMPLATE}`);
  await admin.destroy();
  const templateDb = createDb(adminUrl.replace(/\/[^/]*$/, `/${TEMPLATE}`), 2);
  await migrateLatest(templateDb);
  await templateDb.destroy();

  let redisUrl = process.env.REDIS_URL ?? null;
  let stopRedis: (() => Promise<void>) | undefined;
  if (!redisUrl) {
    const redis = await startRedisServer(root);
    if (redis) {
      redisUrl = redis.url;
      stopRedis = redis.stop;
    }
  }

  const buildDir = path.resolve(process.env.BUILD_DIR ?? 'build');
  if (!existsSync(path.join(buildDir, 'server/index.js'))) {
    throw new Error(`No production build at ${buildDir}: run "npm run build" first (npm test does).`);
  }

  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', TEMPLATE);
  project.provide('redisUrl', redisUrl);
  project.provide('buildDir', buildDir);

  return async () => {
    await stopRedis?.();
    await stopPg?.();
    await rm(root, { recursive: true, force: true });
  };
}
