import { getPriority } from 'node:os';
import { afterAll, expect, it } from 'vitest';
import { startWorkerlessApp, type WorkerlessApp } from '../support/process.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { until } from '../support/until.ts';
import { recordMailFault } from './summary.ts';

const ORDERS = 6;

let stack: WorkerlessApp | undefined;
afterAll(() => stack?.close());

it('sends each order confirmation exactly once when the worker is SIGKILLed in the middle of sending it', async () => {
  // The orders are taken by a web instance without workers: their mail jobs wait in the outbox.
  stack = await startWorkerlessApp();
  const { app, smtp } = stack;
  const product = await createProductRow(app.services.db, { name: 'Notebook', price: 1250, stock: 100 });
  const orderIds: number[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const guest = new GuestClient(app);
    await guest.add(product.id, 1);
    const placed = await guest.checkout(validCheckout);
    expect(placed.status).toBe(201);
    orderIds.push(placed.body.id);
  }

  // The SMTP server reads each message to its end but holds its answer to DATA: the worker's job
  // (the relay made the six confirmations one job, sent one after another) is in the middle of
  // sending when it is killed.
  smtp.stall(true);
  let worker = stack.startWorker();
  // Once started, the worker yields the CPU to the web process: WORKER_NICE (10 by default) steps
  // below the priority it was started with, this test's own.
  const lowered = Math.min(19, getPriority() + 10);
  expect((await worker.waitForLog('worker started')).nice).toBe(lowered);
  expect(getPriority(worker.child.pid)).toBe(lowered);
  await until(() => smtp.stalled.length === 1, 'a mail held in DATA');
  const held = smtp.stalled.map((m) => m.messageId);
  worker.child.kill('SIGKILL');
  await worker.exited;
  await until(() => smtp.stalled.length === 0, 'the held connections closing');
  expect(smtp.messages).toHaveLength(0);
  smtp.stall(false);

  // A new worker finds the interrupted jobs (stalled, their lock expired) and the rest.
  worker = stack.startWorker();
  const subjects = orderIds.map((id) => `Order #${id} confirmed`);
  await until(
    () => subjects.every((s) => smtp.messages.some((m) => m.subject === s)),
    'every confirmation arriving',
    180_000,
  );
  const { db } = app.services;
  const recorded = async () =>
    Number((await db('order_events').where({ type: 'ConfirmationEmailSent' }).count({ n: '*' }).first())?.n);
  await until(async () => (await recorded()) === ORDERS, 'every ConfirmationEmailSent recorded');
  // The redelivered jobs have all run: no confirmation job is left to send a second copy (the
  // orders' delayed expiry jobs wait on the same queue for days).
  await until(async () => {
    const jobs = await app.services.queues.queue('orders').getJobs(['active', 'waiting', 'delayed']);
    return jobs.every((job) => !job.name.startsWith('orders.send-confirmation'));
  }, 'the confirmation jobs draining');
  worker.child.kill('SIGTERM');
  await worker.exited;

  const perOrder = subjects.map((s) => smtp.messages.filter((m) => m.subject === s).length);
  await recordMailFault(perOrder);
  expect(perOrder).toEqual(orderIds.map(() => 1));
  expect(smtp.messages).toHaveLength(ORDERS);
  // The interrupted mails went out again as the same messages (same Message-ID).
  for (const id of held) expect(smtp.messages.map((m) => m.messageId)).toContain(id);
  expect(await recorded()).toBe(ORDERS);
});
