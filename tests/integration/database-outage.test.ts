import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { createDb } from '../../src/db/knex.ts';
import { UNAVAILABLE_MESSAGE } from '../../src/server/middleware.ts';
import { startTestApp } from '../support/app.ts';
import { freePort } from '../support/redis-server.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

it('answers 503 at once while PostgreSQL is stopped, and recovers by itself', async () => {
  await mkdir('.test-data', { recursive: true });
  const dir = await mkdtemp(path.resolve('.test-data', 'outage-'));
  await chmod(dir, 0o755);
  dirs.push(dir);
  const port = await freePort();
  let pg = await startEmbeddedPostgres({ dataDir: dir, port, database: 'penstand' });
  const app = await startTestApp({
    database: { db: createDb(pg.url, 1), url: pg.url, name: 'outage', drop: async () => {} },
  });
  try {
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    await pg.stop();

    // The first request after the outage finds out; every later one is refused straight away.
    const first = await fetch(`${app.url}/`);
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('5');
    expect(await first.text()).toContain(UNAVAILABLE_MESSAGE);
    const api = await fetch(`${app.url}/api/no-such-endpoint`);
    expect(api.status).toBe(503);
    expect(await api.json()).toEqual({ message: UNAVAILABLE_MESSAGE });
    expect(app.services.dbAvailability.isDown).toBe(true);
    expect((await fetch(`${app.url}/api/health`)).status).toBe(503);

    pg = await startEmbeddedPostgres({ dataDir: dir, port, database: 'penstand' });
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await fetch(`${app.url}/`)).status;
    }
    expect(status).toBe(200);
    expect(app.services.dbAvailability.isDown).toBe(false);
  } finally {
    await app.close().catch(() => {});
    await pg.stop().catch(() => {});
  }
});
