import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { UNAVAILABLE_MESSAGE } from '../../src/server/middleware.ts';
import { type RunningProcess, startWebProcess } from '../support/process.ts';
import { freePort } from '../support/redis-server.ts';
import { type LoadRequest, loadLoop } from './load.ts';
import { recordSummary } from './summary.ts';

const OUTAGE_MS = 10_000;
/** A request still unanswered after this long waited on the database instead of failing fast. */
const HANG_MS = 5_000;

let dir: string | undefined;
let pg: EmbeddedDatabase | undefined;
let web: RunningProcess | undefined;
afterAll(async () => {
  web?.child.kill('SIGKILL');
  await pg?.stop().catch(() => {});
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('answers 503 at once while PostgreSQL is stopped for 10 s under load, and recovers without a restart', async () => {
  await mkdir('.test-data', { recursive: true });
  dir = await mkdtemp(path.resolve('.test-data', 'outage-'));
  await chmod(dir, 0o755);
  const pgPort = await freePort();
  const startPg = () => startEmbeddedPostgres({ dataDir: dir ?? '', port: pgPort, database: 'penstand' });
  pg = await startPg();
  const started = await startWebProcess({ DATABASE_URL: pg.url, SEED_DEMO: 'true', LOG_LEVEL: 'info' });
  web = started;
  const base = started.url;
  const { posts } = await (await fetch(`${base}/api/posts`)).json();
  const { products } = await (await fetch(`${base}/api/products`)).json();
  const requests: LoadRequest[] = [
    { path: '/' },
    { path: `/post/${posts[0].slug}` },
    { path: '/shop' },
    { path: `/product/${products[0].id}` },
    { path: '/api/posts' },
    { path: `/api/products/${products[0].id}` },
    { method: 'POST', path: '/api/cart?action=add', body: { productId: products[0].id, quantity: 1 } },
  ];
  const load = loadLoop(base, requests, { concurrency: 6, hangMs: HANG_MS });
  await sleep(2_000);

  const stopping = Date.now();
  await pg.stop();
  const down = Date.now();
  // The first request to need the database finds out; from then on everything is refused at once.
  await sleep(1_000);
  const page = await fetch(`${base}/shop`);
  expect(page.status).toBe(503);
  expect(page.headers.get('retry-after')).toBe('5');
  expect(await page.text()).toContain(UNAVAILABLE_MESSAGE);
  const api = await fetch(`${base}/api/posts`);
  expect(api.status).toBe(503);
  expect(await api.json()).toEqual({ message: UNAVAILABLE_MESSAGE });
  const health = await fetch(`${base}/api/health`);
  expect(health.status).toBe(503);
  expect((await health.json()).database.status).toBe('down');
  await sleep(OUTAGE_MS - (Date.now() - stopping));

  const restarting = Date.now();
  pg = await startPg();
  let recovered = false;
  for (let i = 0; i < 120 && !recovered; i++) {
    await sleep(250);
    const statuses = await Promise.all(
      requests.filter((r) => !r.method).map((r) => fetch(`${base}${r.path}`).then((res) => res.status)),
    );
    recovered = statuses.every((s) => s === 200);
  }
  expect(recovered).toBe(true);
  const back = Date.now();
  await sleep(2_000);
  const samples = await load.stop();

  const healthAfter = await fetch(`${base}/api/health`);
  expect(healthAfter.status).toBe(200);
  expect((await healthAfter.json()).database.status).toBe('up');
  const unexpected5xx = samples.filter((s) => s.status >= 500 && s.status !== 503);
  await recordSummary({
    requestsSent: samples.length,
    serverErrors: unexpected5xx.length,
    faultsInjected: 1,
    faultsSurvived: web.child.exitCode === null ? 1 : 0,
  });

  // The same process served throughout: it neither exited nor was restarted.
  expect(web.child.exitCode).toBeNull();
  // No request hung (each was answered within HANG_MS) and none failed at the connection.
  expect(samples.filter((s) => s.status === 0)).toEqual([]);
  // Every answer was a success or the fail-fast 503.
  const failures = web
    .output()
    .split('\n')
    .filter((line) => line.includes('"request failed"'))
    .join('\n');
  expect(
    samples.filter((s) => !(s.status < 300 || s.status === 503)),
    failures,
  ).toEqual([]);
  const duringOutage = samples.filter((s) => s.start >= down && s.end <= restarting);
  expect(duringOutage.length).toBeGreaterThan(20);
  expect(duringOutage.filter((s) => s.status !== 503)).toEqual([]);
  expect(samples.filter((s) => s.end < stopping).every((s) => s.status < 300)).toBe(true);
  const afterRecovery = samples.filter((s) => s.start >= back);
  expect(afterRecovery.length).toBeGreaterThan(0);
  expect(afterRecovery.filter((s) => s.status >= 300)).toEqual([]);
  expect(web.output()).toContain('database reachable again');
});
