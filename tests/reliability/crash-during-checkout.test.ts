import { afterAll, expect, it } from 'vitest';
import { rebuildProjections } from '../../src/orders/store.ts';
import { stockOf } from '../../src/shop/stock.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { startProcess } from '../support/process.ts';
import { freePort } from '../support/redis-server.ts';
import { createProductRow, validCheckout } from '../support/shop.ts';
import { recordSummary } from './summary.ts';

let database: TestDatabase;
afterAll(async () => {
  await database?.drop();
});

async function dump(db: TestDatabase['db']) {
  const orders = await db('orders')
    .orderBy('id')
    .select('id', 'email', 'total_amount', 'status', 'payment_status', 'version');
  const items = await db('order_items')
    .orderBy('id')
    .select('id', 'order_id', 'product_id', 'quantity', 'price_at_time', 'product_name');
  return JSON.stringify({ orders, items });
}

it('loses no order and no stock when the web process is killed in the middle of a checkout burst', async () => {
  database = await createTestDatabase();
  const { db } = database;
  const product = await createProductRow(db, { stock: 500, price: 1500 });
  const port = await freePort();
  const web = startProcess('src/web/start.ts', [], {
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    CHECKOUT_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
  });
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const base = `http://127.0.0.1:${port}`;
  const shopper = async () => {
    const add = await fetch(`${base}/api/cart?action=add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId: product.id, quantity: 2 }),
    });
    const sid = add.headers.get('x-session-id') ?? '';
    await fetch(`${base}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': sid },
      body: JSON.stringify(validCheckout),
    });
  };
  const burst = Array.from({ length: 120 }, () => shopper().catch(() => {}));
  // Kill it once some orders exist and others are still on their way.
  for (let i = 0; i < 200; i++) {
    const { n } = (await db('order_events').count({ n: '*' }).first()) as { n: number };
    if (n >= 10) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  web.child.kill('SIGKILL');
  await web.exited;
  await Promise.all(burst);

  const placed = await db('order_events').where({ type: 'OrderPlaced' }).select('order_id');
  expect(placed.length).toBeGreaterThan(0);
  // Every order has its projection, the projection equals a rebuild from events alone,
  // and stock is the initial stock less what the orders reserved.
  const orders = await db('orders').select('id');
  expect(orders.map((o) => o.id).sort()).toEqual(placed.map((e) => e.order_id).sort());
  const before = await dump(db);
  await rebuildProjections(db);
  expect(await dump(db)).toBe(before);
  const reserved = await db('order_items as i')
    .join('orders as o', 'o.id', 'i.order_id')
    .whereNot('o.status', 'cancelled')
    .where('i.product_id', product.id)
    .sum({ q: 'i.quantity' })
    .first();
  const stock = await stockOf(db, product.id);
  expect(stock).toBe(500 - Number(reserved?.q ?? 0));
  // The confirmation jobs wait in the outbox for a worker: none was lost with the process.
  const outbox = await db('outbox').where('job_name', 'orders.send-confirmation').count({ n: '*' }).first();
  expect(Number(outbox?.n)).toBe(placed.length);
  await recordSummary({ faultsInjected: 1, faultsSurvived: 1, ordersLost: 0 });
});
