import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.ts';
import { rebuildProjections } from '../../src/orders/store.ts';
import { stockOf } from '../../src/shop/stock.ts';
import { emptyDataDir, type RunningProcess, startProcess } from '../support/process.ts';
import { freePort } from '../support/redis-server.ts';
import { createProductRow, validCheckout } from '../support/shop.ts';
import { until } from '../support/until.ts';
import { recordSummary } from './summary.ts';

let dataDir = '';
let web: RunningProcess | undefined;
let db: Db | undefined;
afterAll(async () => {
  await db?.destroy();
  if (web && web.child.exitCode === null) {
    web.child.kill('SIGTERM');
    await web.exited;
  }
  // PostgreSQL restarted by the site may still be writing its last files as the site exits.
  if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

async function projections(db: Db) {
  const orders = await db('orders')
    .orderBy('id')
    .select('id', 'total_amount', 'status', 'payment_status', 'version');
  const items = await db('order_items').orderBy('id').select('id', 'order_id', 'product_id', 'quantity');
  return JSON.stringify({ orders, items });
}

it("restarts the site's own PostgreSQL when it is killed during checkouts: 503 meanwhile, back within 10 s, no order lost or half-placed", async () => {
  dataDir = await emptyDataDir('pg-killed');
  const port = await freePort();
  const pgPort = await freePort();
  // The default install: embedded PostgreSQL, no DATABASE_URL.
  web = startProcess('src/web/start.ts', ['--with-worker'], {
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    SEED_DEMO: 'false',
    CHECKOUT_RATE_LIMIT: '100000',
    LOG_LEVEL: 'info',
  });
  await web.waitForLog('Penstand is listening', 90_000);
  const base = `http://127.0.0.1:${port}`;
  const dbUrl = `postgres://postgres:postgres@127.0.0.1:${pgPort}/penstand`;
  const setup = createDb(dbUrl, 1);
  const product = await createProductRow(setup, { stock: 5_000, price: 1500 });
  await setup.destroy();

  const statuses: number[] = [];
  const retryAfterOf503: (string | null)[] = [];
  const note = (res: Response) => {
    statuses.push(res.status);
    if (res.status === 503) retryAfterOf503.push(res.headers.get('retry-after'));
  };
  // A request the site never answered (a reset, a refused connection), with the time from the kill.
  const unanswered: string[] = [];
  let killedAt = 0;
  const send = async (url: string, init?: RequestInit) => {
    try {
      const res = await fetch(url, init);
      await res.arrayBuffer();
      return res;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      unanswered.push(
        `${new URL(url).pathname} ${cause} at ${killedAt ? Date.now() - killedAt : 'before the kill'} ms`,
      );
      return undefined;
    }
  };
  let shopping = true;
  const shopper = async () => {
    while (shopping) {
      const add = await send(`${base}/api/cart?action=add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ productId: product.id, quantity: 1 }),
      });
      if (!add) continue;
      note(add);
      const order = await send(`${base}/api/orders`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-session-id': add.headers.get('x-session-id') ?? '',
        },
        body: JSON.stringify(validCheckout),
      });
      if (order) note(order);
    }
  };
  const shoppers = Array.from({ length: 6 }, shopper);
  await new Promise((r) => setTimeout(r, 1_500));

  const postmaster = Number.parseInt(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8'), 10);
  process.kill(postmaster, 'SIGKILL');
  killedAt = Date.now();
  let backAfterMs = Number.POSITIVE_INFINITY;
  // Back is a 200 once the health check has said the database is down: the first check after the
  // kill can still be answered by a backend of the dead postmaster.
  let seenDown = false;
  while (Date.now() - killedAt < 15_000) {
    const health = await send(`${base}/api/health`);
    const page = await send(`${base}/`);
    if (page) note(page);
    if (health && health.status !== 200) seenDown = true;
    if (health?.status === 200 && seenDown) {
      backAfterMs = Date.now() - killedAt;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1_500)); // shoppers order on the restarted cluster
  shopping = false;
  await Promise.all(shoppers);

  // Every request was answered: the site's process outlived its database.
  expect(unanswered, web.output().slice(-6_000)).toEqual([]);
  expect(backAfterMs).toBeLessThan(10_000);
  // Meanwhile pages and the API answered 503 with a Retry-After.
  expect(retryAfterOf503.length).toBeGreaterThan(0);
  expect(retryAfterOf503.filter((value) => !value)).toEqual([]);
  expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
  expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
  expect(web.output()).toContain('embedded PostgreSQL restarted');

  const orderDb = createDb(dbUrl, 2);
  db = orderDb;
  // Orders and their event stream agree: every placed order has its projection and its items,
  // the projections equal a rebuild from the events alone, and stock went only to orders.
  const placed = await db('order_events').where({ type: 'OrderPlaced' }).select('order_id');
  const orders = await db('orders').select('id');
  expect(orders.map((o) => o.id).sort()).toEqual(placed.map((e) => e.order_id).sort());
  // The site's worker is still mailing confirmations (an event each): compare once it is done.
  await until(
    async () =>
      Number((await orderDb('orders').where({ confirmation_sent: false }).count({ n: '*' }).first())?.n) ===
      0,
    'every confirmation recorded',
    60_000,
  );
  const before = await projections(db);
  await rebuildProjections(db);
  expect(await projections(db)).toBe(before);
  const reserved = await db('order_items').where({ product_id: product.id }).sum({ q: 'quantity' }).first();
  const stock = await stockOf(db, product.id);
  expect(stock).toBe(5_000 - Number(reserved?.q ?? 0));
  await recordSummary({ faultsInjected: 1, faultsSurvived: 1, ordersLost: 0 });
});
