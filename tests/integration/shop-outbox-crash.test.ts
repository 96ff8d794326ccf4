import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder } from '../../src/checkout/place-order.ts';
import { relayOutbox } from '../../src/jobs/outbox.ts';
import { sendOrderConfirmation } from '../../src/orders/confirmation.ts';
import { stockOf } from '../../src/shop/stock.ts';
import { startWorkers } from '../../workers/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { startSmtpServer } from '../support/smtp.ts';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let database: TestDatabase;
beforeAll(async () => {
  [smtp, database] = await Promise.all([startSmtpServer(), createTestDatabase()]);
});
afterAll(async () => {
  await smtp?.close();
  await database?.drop();
});

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

describe('a crash between the order commit and the enqueue', () => {
  it('loses no confirmation mail and sends it exactly once, even when relayed and run twice', async () => {
    // The first process takes the order and dies before any relay runs (no worker at all).
    let app: TestApp = await startTestApp({ database, env: { SMTP_URL: smtp.url } });
    const product = await createProductRow(app.services.db, { name: 'Notebook', price: 1250, stock: 5 });
    const guest = new GuestClient(app);
    await guest.add(product.id, 2);
    const placed = await guest.checkout(validCheckout, 'crash-test-key-1');
    expect(placed.status).toBe(201);
    const orderId: number = placed.body.id;
    const pending = await app.services.db('outbox').select('job_name', 'job_id', 'payload');
    expect(pending).toEqual([
      // The unpaid order's stock hold ends with this delayed job.
      { job_name: 'orders.expire', job_id: `order-expire-${orderId}`, payload: { orderId } },
      { job_name: 'orders.send-confirmation', job_id: `order-confirmation-${orderId}`, payload: { orderId } },
    ]);
    expect(await app.services.queues.queue('orders').getJobCounts('waiting', 'active', 'completed')).toEqual({
      waiting: 0,
      active: 0,
      completed: 0,
    });
    await app.close();
    expect(smtp.messages).toHaveLength(0);

    // A new process on the same database: relaying twice enqueues the jobs once.
    app = await startTestApp({ database, env: { SMTP_URL: smtp.url } });
    try {
      const { db, queues, mailer } = app.services;
      expect(await relayOutbox(db, queues)).toBe(2);
      expect(await relayOutbox(db, queues)).toBe(0);
      // And even a second copy of the job (a redelivery) must not send a second mail.
      await queues.enqueue('orders.send-confirmation', { orderId }, { jobId: `redelivery-${orderId}` });
      const workers = startWorkers(app.services);
      try {
        const mail = await smtp.waitFor((m) => m.subject === `Order #${orderId} confirmed`);
        expect(mail.to).toEqual(['ada@example.com']);
        expect(mail.text).toContain('2 × Notebook');
        expect(mail.text).toContain('Total: $25.00');
        expect(mail.text).toContain('12 Analytical Street');
        expect(mail.text).toContain('SW1A 1AA London');
        expect(mail.html).toContain(`#${orderId}`);
        // Both copies of the confirmation job ran (the worker's expiry sweep runs on the same queue).
        const confirmations = await waitFor(
          async () =>
            (await queues.queue('orders').getCompleted()).filter((j) => j.name === 'orders.send-confirmation')
              .length,
          (n) => n === 2,
        );
        expect(confirmations).toBe(2);
      } finally {
        await workers.close();
      }
      expect(smtp.messages.filter((m) => m.subject === `Order #${orderId} confirmed`)).toHaveLength(1);
      expect(await sendOrderConfirmation(db, mailer, orderId)).toBe('already-sent');
      const sentEvents = await db('order_events').where({ order_id: orderId, type: 'ConfirmationEmailSent' });
      expect(sentEvents).toHaveLength(1);
      expect((await db('orders').where({ id: orderId }).first()).confirmation_sent).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('the outbox relay', () => {
  it('relays the confirmations of several orders as one job that mails each order once, even run twice', async () => {
    const app = await startTestApp({ database, env: { SMTP_URL: smtp.url } });
    try {
      const { db, queues } = app.services;
      await relayOutbox(db, queues);
      const product = await createProductRow(db, { name: 'Sketchbook', price: 900, stock: null });
      const orderIds: number[] = [];
      for (const key of ['batch-key-0001', 'batch-key-0002', 'batch-key-0003']) {
        const guest = new GuestClient(app);
        await guest.add(product.id, 1);
        const placed = await guest.checkout(validCheckout, key);
        expect(placed.status).toBe(201);
        orderIds.push(placed.body.id);
      }
      expect(await relayOutbox(db, queues)).toBe(6);
      const queued = await queues.queue('orders').getJobs(['waiting', 'delayed']);
      const batches = queued.filter((j) => j.name === 'orders.send-confirmations');
      expect(batches.map((j) => j.data)).toEqual([{ orderIds }]);
      expect(queued.filter((j) => j.name === 'orders.send-confirmation')).toEqual([]);
      // A second batch over the same orders (another relay's), with one more unknown order id.
      await queues.enqueue('orders.send-confirmations', { orderIds: [...orderIds, 999_999] });
      const workers = startWorkers(app.services);
      try {
        const completed = await waitFor(
          async () =>
            (await queues.queue('orders').getCompleted()).filter(
              (j) => j.name === 'orders.send-confirmations',
            ).length,
          (n) => n === 2,
        );
        expect(completed).toBe(2);
      } finally {
        await workers.close();
      }
      for (const orderId of orderIds) {
        expect(smtp.messages.filter((m) => m.subject === `Order #${orderId} confirmed`)).toHaveLength(1);
        expect(
          await db('order_events').where({ order_id: orderId, type: 'ConfirmationEmailSent' }),
        ).toHaveLength(1);
      }
    } finally {
      await app.close();
    }
  });

  it('relays the expiries due in the same second as one delayed job that expires each order at its deadline', async () => {
    const app = await startTestApp({ database, env: { SMTP_URL: smtp.url } });
    try {
      const { db, queues } = app.services;
      await relayOutbox(db, queues);
      const product = await createProductRow(db, { name: 'Poster', price: 700, stock: 4 });
      // Both holds end at the same instant, two seconds on.
      const deadline = Math.ceil((Date.now() + 2_000) / 1000) * 1000;
      const orders = await Promise.all(
        [0, 1].map(async () => {
          const guest = new GuestClient(app);
          await guest.add(product.id, 2);
          const placed = await placeOrder(db, {
            owner: { userId: null, sessionId: guest.sid },
            checkout: validCheckout,
            idempotencyKey: null,
            currency: 'usd',
            holdMs: deadline - Date.now(),
          });
          return placed.order.id;
        }),
      );
      expect(await stockOf(db, product.id)).toBe(0);
      await relayOutbox(db, queues);
      const delayed = await queues.queue('orders').getJobs(['delayed']);
      // The earlier orders' expiries (days away) wait on the same queue.
      const ofThese = (data: { orderId?: number; orderIds?: number[] }) =>
        [data.orderId, ...(data.orderIds ?? [])].some((id) => id !== undefined && orders.includes(id));
      const expiries = delayed.filter((j) => j.name.startsWith('orders.expire') && ofThese(j.data));
      expect(expiries.map((j) => j.name)).toEqual(['orders.expire-orders']);
      expect([...expiries[0].data.orderIds].sort()).toEqual([...orders].sort());
      const workers = startWorkers(app.services);
      try {
        await waitFor(
          () => db('orders').whereIn('id', orders).where({ status: 'expired' }).count({ n: '*' }).first(),
          (row) => Number(row?.n) === 2,
        );
      } finally {
        await workers.close();
      }
      expect(Date.now()).toBeGreaterThanOrEqual(deadline);
      expect(await stockOf(db, product.id)).toBe(4);
      expect(
        await db('order_events').whereIn('order_id', orders).where({ type: 'OrderExpired' }),
      ).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});
