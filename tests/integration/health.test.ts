import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { createDb } from '../../src/db/knex.ts';
import { startTestApp } from '../support/app.ts';
import { freePort } from '../support/redis-server.ts';

describe.each(['postgres', 'redis'] as const)('GET /api/health on the %s queue backend', (queue) => {
  it.skipIf(queue === 'redis' && !inject('redisUrl'))(
    'answers 200 with the database and queue up',
    async () => {
      const app = await startTestApp({ queue });
      try {
        const res = await fetch(`${app.url}/api/health`);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({
          status: 'ok',
          database: { status: 'up' },
          queue: { status: 'up', backend: queue },
        });
      } finally {
        await app.close();
      }
    },
  );
});

describe('GET /api/health when PostgreSQL stops', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('answers 503 within 2 s while it is down, and 200 again once it is back', async () => {
    // A PostgreSQL of its own, so stopping it does not disturb other test files.
    await mkdir('.test-data', { recursive: true });
    const dir = await mkdtemp(path.resolve('.test-data', 'health-'));
    await chmod(dir, 0o755); // initdb runs as the postgres user when we are root
    dirs.push(dir);
    const port = await freePort();
    let pg = await startEmbeddedPostgres({ dataDir: dir, port, database: 'penstand' });
    const app = await startTestApp({
      database: { db: createDb(pg.url, 1), url: pg.url, name: 'health', drop: async () => {} },
    });
    try {
      expect((await fetch(`${app.url}/api/health`)).status).toBe(200);

      await pg.stop();
      const started = Date.now();
      const down = await fetch(`${app.url}/api/health`);
      const elapsed = Date.now() - started;
      expect(down.status).toBe(503);
      const body = await down.json();
      expect(body.status).toBe('unavailable');
      expect(body.database.status).toBe('down');
      expect(elapsed).toBeLessThan(2_000);

      pg = await startEmbeddedPostgres({ dataDir: dir, port, database: 'penstand' });
      let status = 0;
      for (let i = 0; i < 40 && status !== 200; i++) {
        status = (await fetch(`${app.url}/api/health`)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      expect(status).toBe(200);
    } finally {
      await app.close().catch(() => {});
      await pg.stop().catch(() => {});
    }
  });
});
