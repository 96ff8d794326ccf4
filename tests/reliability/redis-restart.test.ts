import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { relayOutbox } from '../../src/jobs/outbox.ts';
import { Queues } from '../../src/jobs/queues.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { type RunningProcess, startProcess, startWebProcess } from '../support/process.ts';
import { redisServerInstalled, startRedisServer } from '../support/redis-server.ts';
import { createProductRow, validCheckout } from '../support/shop.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { until } from '../support/until.ts';
import { recordMailFault } from './summary.ts';

type Redis = NonNullable<Awaited<ReturnType<typeof startRedisServer>>>;

let dir: string | undefined;
let redis: Redis | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
let database: TestDatabase | undefined;
let web: (RunningProcess & { url: string }) | undefined;
let worker: RunningProcess | undefined;
let queues: Queues | undefined;
afterAll(async () => {
  worker?.child.kill('SIGKILL');
  web?.child.kill('SIGKILL');
  await queues?.close();
  await redis?.stop();
  await smtp?.close();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function placeOrder(base: string, productId: number): Promise<number> {
  const added = await fetch(`${base}/api/cart?action=add`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId, quantity: 1 }),
  });
  expect(added.status).toBeLessThan(300);
  const placed = await fetch(`${base}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-id': added.headers.get('x-session-id') ?? '' },
    body: JSON.stringify(validCheckout),
  });
  expect(placed.status).toBe(201);
  return (await placed.json()).id;
}

it.skipIf(!redisServerInstalled())('loses no queued job when Redis is SIGKILLed and restarted', async () => {
  await mkdir('.test-data', { recursive: true });
  dir = await mkdtemp(path.resolve('.test-data', 'redis-'));
  // Production needs the same: appendonly yes with appendfsync always (docs/operators-guide.md: Security).
  redis = (await startRedisServer(dir, { durable: true })) as Redis;
  smtp = await startSmtpServer();
  database = await createTestDatabase();
  const { db } = database;
  const product = await createProductRow(db, { stock: 1000 });
  web = await startWebProcess({
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    CHECKOUT_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
  });
  const base = web.url;

  // Orders whose mail jobs the relay has moved from the outbox into Redis: they now live
  // only there, waiting for a worker.
  const orderIds: number[] = [];
  for (let i = 0; i < 8; i++) orderIds.push(await placeOrder(base, product.id));
  queues = new Queues({ kind: 'redis', url: redis.url });
  // Each order's confirmation, and its stock hold's expiry (delayed by the hold time): the relay
  // sends the confirmations as one job and the expiries due in the same second as one.
  expect(await relayOutbox(db, queues)).toBe(16);
  const ordersOf = async (state: 'waiting' | 'delayed') =>
    (await queues!.queue('orders').getJobs([state]))
      .flatMap((job) => (job.data.orderIds as number[] | undefined) ?? [job.data.orderId as number])
      .sort((a, b) => a - b);
  expect(await ordersOf('waiting')).toEqual([...orderIds].sort((a, b) => a - b));
  expect(await ordersOf('delayed')).toEqual([...orderIds].sort((a, b) => a - b));
  await queues.close();
  queues = undefined;

  await redis.kill();
  // Meanwhile the shop keeps taking orders; their jobs wait in the outbox, and health says
  // the queue is down.
  for (let i = 0; i < 4; i++) orderIds.push(await placeOrder(base, product.id));
  const health = await fetch(`${base}/api/health`);
  expect(health.status).toBe(503);
  expect((await health.json()).queue).toMatchObject({ status: 'down', backend: 'redis' });

  redis = (await startRedisServer(dir, { port: redis.port, durable: true })) as Redis;
  worker = startProcess('src/cli/worker.ts', [], {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
  });
  const subjects = orderIds.map((id) => `Order #${id} confirmed`);
  await until(
    () => subjects.every((s) => smtp?.messages.some((m) => m.subject === s)),
    'every confirmation arriving',
  );
  await until(
    async () =>
      Number(
        (await db('order_events').where({ type: 'ConfirmationEmailSent' }).count({ n: '*' }).first())?.n,
      ) === orderIds.length,
    'every ConfirmationEmailSent recorded',
  );
  // The web process reconnects by itself: ioredis retries with a back-off of up to 2 s.
  await until(
    async () => (await fetch(`${base}/api/health`)).status === 200,
    'the web process answering healthy again',
    15_000,
  );

  const perOrder = subjects.map((s) => smtp?.messages.filter((m) => m.subject === s).length ?? 0);
  await recordMailFault(perOrder);
  expect(perOrder).toEqual(orderIds.map(() => 1));
  expect(web.child.exitCode).toBeNull();
});
