import { beforeAll, describe, expect, it } from 'vitest';
import {
  sendOrderConfirmation,
  sendOrderConfirmations,
  sendOrderMail,
} from '../../src/orders/confirmation.ts';
import { rebuildProjections } from '../../src/orders/store.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { deliverSigned, setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';
import { until } from '../support/until.ts';

// No worker: the test itself runs the mail jobs, at the moment it races them against a payment change.
const WEBHOOK_SECRET = 'whsec_penstand_races';
let admin: Record<string, string>;
const stack = setUpCardPaymentsApp(WEBHOOK_SECRET);
beforeAll(async () => {
  const { headers } = await signedInSession(stack.app, { role: 'admin' });
  admin = { ...headers, 'content-type': 'application/json' };
});

async function placedOrder() {
  const product = await createProductRow(stack.app.services.db, { price: 1500, stock: 5 });
  const guest = new GuestClient(stack.app);
  await guest.add(product.id, 2);
  const res = await guest.checkout(validCheckout);
  expect(res.status).toBe(201);
  return res.body as { id: number; paymentUrl: string; orderUrl: string };
}

/** The customer pays the order's Stripe session: its completion comes as a signed webhook. */
async function payByCard(order: { paymentUrl: string }) {
  const paid = stack.stripe.complete(order.paymentUrl.split('/pay/')[1]);
  const delivery = stack.stripe.event('checkout.session.completed', paid);
  expect((await deliverSigned(stack.app, delivery, WEBHOOK_SECRET)).body.outcome).toBe('applied');
  return paid;
}

async function paidOrder() {
  const order = await placedOrder();
  return { order, paymentIntent: (await payByCard(order)).payment_intent };
}

const eventsOf = async (orderId: number) =>
  (await stack.app.services.db('order_events').where({ order_id: orderId }).orderBy('version')).map(
    (e) => e.type,
  );

/** Until a session waits for an advisory lock (a mail job's, held by another run). */
const untilWaitingForALock = (what: string) =>
  until(
    async () =>
      Number(
        (
          await stack.app.services
            .db('pg_locks')
            .where({ locktype: 'advisory', granted: false })
            .count({ n: '*' })
            .first()
        )?.n,
      ) > 0,
    what,
    15_000,
  );

describe('a payment change racing a mail job', () => {
  it('issues one Stripe refund when a mail recorded meanwhile makes the refund retry', async () => {
    const { order, paymentIntent } = await paidOrder();
    const { db, mailer } = stack.app.services;
    // While Stripe makes the refund, the 'Payment received' job records its mail (it does not
    // take the payment lock): the refund's append then meets a version it did not read.
    let mailJob: Promise<string> | undefined;
    stack.stripe.beforeAnswer = async (request) => {
      if (request.path !== '/v1/refunds') return;
      stack.stripe.beforeAnswer = null;
      mailJob = sendOrderMail(
        db,
        mailer,
        { orderId: order.id, kind: 'payment-received', key: 'payment-received' },
        order.orderUrl,
      );
      await mailJob;
    };
    const res = await fetch(`${stack.app.url}/api/admin/orders/${order.id}?action=refund`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ amount: 500 }),
    });
    expect(res.status).toBe(200);
    expect(await mailJob).toBe('sent');

    expect(stack.stripe.refunds.filter((r) => r.payment_intent === paymentIntent)).toEqual([
      expect.objectContaining({ amount: 500 }),
    ]);
    expect(stack.stripe.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(1);
    const [refund] = stack.stripe.refunds.filter((r) => r.payment_intent === paymentIntent);
    const issued = await db('order_events').where({ order_id: order.id, type: 'RefundIssued' });
    expect(issued.map((e) => e.data)).toEqual([
      {
        amount: 500,
        restock: false,
        refundId: refund.id,
        reason: null,
        creditNoteNumber: expect.stringMatching(/^CN-\d{4}-\d{4}$/),
      },
    ]);
    expect(await eventsOf(order.id)).toEqual([
      'OrderPlaced',
      'PaymentRequested',
      'PaymentSucceeded',
      'OrderMailSent',
      'RefundIssued',
    ]);
    expect(
      await db('orders').where({ id: order.id }).first('payment_status', 'paid_amount', 'refunded_amount'),
    ).toEqual({ payment_status: 'partially_refunded', paid_amount: 3000, refunded_amount: 500 });

    // The rest: a new refund, named by what was refunded before it.
    const rest = await fetch(`${stack.app.url}/api/admin/orders/${order.id}?action=refund`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ amount: 2500 }),
    });
    expect(rest.status).toBe(200);
    expect(
      stack.stripe.refunds.filter((r) => r.payment_intent === paymentIntent).map((r) => r.amount),
    ).toEqual([500, 2500]);
    expect(
      stack.stripe.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.idempotencyKey),
    ).toEqual([`refund-${order.id}-0-500`, `refund-${order.id}-500-2500`]);
    expect(await db('orders').where({ id: order.id }).first('payment_status', 'refunded_amount')).toEqual({
      payment_status: 'refunded',
      refunded_amount: 3000,
    });
  });

  it('sends a confirmation once when two runs of its job overlap, the second waiting for the first', async () => {
    const order = await placedOrder();
    const { db, mailer } = stack.app.services;
    stack.smtp.stall(true);
    const first = sendOrderConfirmation(db, mailer, order.id);
    let second: Promise<string> | undefined;
    try {
      await until(
        () => stack.smtp.stalled.some((m) => m.subject.includes(`#${order.id}`)),
        'the first run reaching the SMTP server',
        15_000,
      );
      // The second run waits for the first's lock; it reads the stream only once that is granted.
      second = sendOrderConfirmation(db, mailer, order.id);
      await untilWaitingForALock('the second run waiting for the lock');
    } finally {
      stack.smtp.stall(false);
    }
    expect([await first, await second]).toEqual(['sent', 'already-sent']);
    expect(stack.smtp.messages.filter((m) => m.subject === `Order #${order.id} confirmed`)).toHaveLength(1);
  });

  it('sends a batch of confirmations once when two batches share orders, each recorded as it goes out', async () => {
    const orders = [await placedOrder(), await placedOrder(), await placedOrder()];
    const [a, b, c] = orders.map((o) => o.id);
    const { db, mailer } = stack.app.services;
    const noGuidance = async () => null;
    const reached = (id: number) => () => stack.smtp.stalled.some((m) => m.subject.includes(`#${id}`));
    stack.smtp.stall(true);
    const first = sendOrderConfirmations(db, mailer, [a, b, c], noGuidance);
    let second: ReturnType<typeof sendOrderConfirmations> | undefined;
    try {
      await until(reached(a), 'the first batch sending its first mail', 15_000);
      // The other batch, naming the orders the other way round, waits for the first one's locks.
      second = sendOrderConfirmations(db, mailer, [c, b, a], noGuidance);
      await untilWaitingForALock('the second batch waiting for the locks');
      stack.smtp.releaseHeld();
      await until(reached(b), 'the first batch sending its second mail', 15_000);
      // The first mail's record is committed (within its window) while the batch still holds the
      // locks and its second mail is not yet accepted.
      await until(
        async () => (await eventsOf(a)).includes('ConfirmationEmailSent'),
        "the first mail's record committed",
        5_000,
      );
      expect(await eventsOf(b)).not.toContain('ConfirmationEmailSent');
    } finally {
      stack.smtp.stall(false);
    }
    expect(await first).toEqual({ sent: 3, 'already-sent': 0, 'no-order': 0 });
    expect(await second).toEqual({ sent: 0, 'already-sent': 3, 'no-order': 0 });
    for (const id of [a, b, c])
      expect(stack.smtp.messages.filter((m) => m.subject === `Order #${id} confirmed`)).toHaveLength(1);
  });

  it("records a batch's confirmations together, one of them again after a payment moved its order", async () => {
    const [a, b, c] = [await placedOrder(), await placedOrder(), await placedOrder()];
    const { db, mailer } = stack.app.services;
    stack.smtp.stall(true);
    const job = sendOrderConfirmations(db, mailer, [a.id, b.id, c.id], async () => null);
    try {
      await until(
        () => stack.smtp.stalled.some((m) => m.subject.includes(`#${a.id}`)),
        'the first confirmation reaching the SMTP server',
        15_000,
      );
      // b is paid after the batch read its stream: its record, decided on that read, is refused.
      await payByCard(b);
    } finally {
      stack.smtp.stall(false);
    }
    expect(await job).toEqual({ sent: 3, 'already-sent': 0, 'no-order': 0 });
    expect(await eventsOf(b.id)).toEqual([
      'OrderPlaced',
      'PaymentRequested',
      'PaymentSucceeded',
      'ConfirmationEmailSent',
    ]);
    for (const { id } of [a, b, c]) {
      expect(await eventsOf(id)).toContain('ConfirmationEmailSent');
      expect((await db('orders').where({ id }).first('confirmation_sent', 'version')).confirmation_sent).toBe(
        true,
      );
      expect(stack.smtp.messages.filter((m) => m.subject === `Order #${id} confirmed`)).toHaveLength(1);
    }
    // b's projection follows its stream: paid, and at the stream's last version; the events
    // rebuild the same rows as the batch's one statement wrote.
    const bRow = await db('orders').where({ id: b.id }).first('payment_status', 'version');
    expect(bRow).toEqual({ payment_status: 'paid', version: 4 });
    const written = await db('orders').whereIn('id', [a.id, b.id, c.id]).orderBy('id');
    await rebuildProjections(db);
    expect(await db('orders').whereIn('id', [a.id, b.id, c.id]).orderBy('id')).toEqual(written);
    expect(await sendOrderConfirmations(db, mailer, [a.id, b.id, c.id], async () => null)).toEqual({
      sent: 0,
      'already-sent': 3,
      'no-order': 0,
    });
  });

  it('records a confirmation that went out while a payment was recorded, and sends it once', async () => {
    const order = await placedOrder();
    const { db, mailer } = stack.app.services;
    stack.smtp.stall(true);
    const job = sendOrderConfirmation(db, mailer, order.id);
    try {
      await until(
        () => stack.smtp.stalled.some((m) => m.subject.includes(`#${order.id}`)),
        'the confirmation reaching the SMTP server',
        15_000,
      );
      // The customer pays while the SMTP server has not yet answered the confirmation's DATA.
      await payByCard(order);
    } finally {
      stack.smtp.stall(false);
    }
    expect(await job).toBe('sent');
    expect(await eventsOf(order.id)).toEqual([
      'OrderPlaced',
      'PaymentRequested',
      'PaymentSucceeded',
      'ConfirmationEmailSent',
    ]);
    expect((await db('orders').where({ id: order.id }).first('confirmation_sent')).confirmation_sent).toBe(
      true,
    );
    // The job run again (a redelivery) finds it recorded and sends nothing.
    expect(await sendOrderConfirmation(db, mailer, order.id)).toBe('already-sent');
    expect(stack.smtp.messages.filter((m) => m.subject === `Order #${order.id} confirmed`)).toHaveLength(1);
  });
});
