import { beforeAll, describe, expect, it } from 'vitest';
import { expireOrder } from '../../src/orders/payments.ts';
import { setStock, stockOf } from '../../src/shop/stock.ts';
import { signedInSession } from '../support/auth.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';
import { createProductFileRow, createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { deliverSigned, type SignedDelivery, setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';

const WEBHOOK_SECRET = 'whsec_penstand_tests';
let admin: Record<string, string>;
const stack = setUpCardPaymentsApp(WEBHOOK_SECRET, { withWorker: true });
beforeAll(async () => {
  const { headers } = await signedInSession(stack.app, { role: 'admin' });
  admin = { ...headers, 'content-type': 'application/json' };
});

const deliver = async (delivery: SignedDelivery, secret = WEBHOOK_SECRET, timestamp?: number) =>
  deliverSigned(stack.app, delivery, secret, timestamp);

async function placedOrder(quantity = 2) {
  const product = await createProductRow(stack.app.services.db, {
    name: 'Field Notes',
    price: 1250,
    stock: 10,
  });
  const guest = new GuestClient(stack.app);
  await guest.add(product.id, quantity);
  const res = await guest.checkout(validCheckout);
  expect(res.status).toBe(201);
  return { order: res.body, product, guest };
}

const sessionOf = (paymentUrl: string) => {
  const session = stack.stripe.sessions.get(paymentUrl.split('/pay/')[1]);
  if (!session) throw new Error(`no session behind ${paymentUrl}`);
  return session;
};

describe('Stripe Checkout', () => {
  it('opens a Checkout Session for exactly the order, from the server’s own prices', async () => {
    const { order } = await placedOrder(2);
    expect(order.paymentUrl).toMatch(new RegExp(`^${stack.stripe.url}/pay/cs_test_`));
    const session = sessionOf(order.paymentUrl);
    expect(session.line_items_sent).toEqual([{ name: 'Field Notes', unit_amount: 1250, quantity: 2 }]);
    expect(session).toMatchObject({
      mode: 'payment',
      currency: 'usd',
      amount_total: 2500,
      client_reference_id: String(order.id),
      customer_email: 'ada@example.com',
    });
    // No hold set: card payments hold the stock for an hour, and Stripe's page closes with it.
    const held = await stack.app.services
      .db('orders')
      .where({ id: order.id })
      .first('hold_until', 'created_at');
    expect(held.hold_until.getTime() - held.created_at.getTime()).toBeCloseTo(60 * 60_000, -3);
    expect(session.expires_at).toBe(Math.floor(held.hold_until.getTime() / 1000));
    expect(session.success_url).toBe(`${order.orderUrl}&payment=done`);
    expect(session.cancel_url).toBe(`${order.orderUrl}&payment=cancelled`);
    const create = stack.stripe.requests.find((r) => r.path === '/v1/checkout/sessions');
    expect(create?.idempotencyKey).toMatch(/^checkout-\d+-\d+$/);

    const mail = await stack.smtp.waitFor(
      (m) => m.subject === `Order #${order.id} received — complete your payment`,
    );
    expect(mail.text).toContain(order.orderUrl);
    // Back from Stripe without a payment event: the page does not believe the query string.
    const back = await fetch(`${order.orderUrl}&payment=done`).then((r) => r.text());
    expect(back).toContain('Waiting for payment confirmation');
    expect(back).not.toContain('Payment received');
  });

  it('records a payment once, however often and in whatever order Stripe delivers its events', async () => {
    const { order } = await placedOrder(1);
    const paid = stack.stripe.complete(sessionOf(order.paymentUrl).id);
    const completed = stack.stripe.event('checkout.session.completed', paid);
    const later = stack.stripe.event('checkout.session.async_payment_succeeded', paid);
    const stale = stack.stripe.event(
      'checkout.session.completed',
      { ...paid, payment_status: 'unpaid' },
      {
        created: Math.floor(Date.now() / 1000) - 60,
      },
    );
    const outcomes = [];
    for (const delivery of [completed, completed, later, completed, stale])
      outcomes.push(await deliver(delivery));
    expect(outcomes.map((o) => o.status)).toEqual([200, 200, 200, 200, 200]);
    expect(outcomes.map((o) => o.body.outcome)).toEqual([
      'applied',
      'duplicate',
      'ignored',
      'duplicate',
      'ignored',
    ]);
    const { db } = stack.app.services;
    expect(await db('order_events').where({ order_id: order.id, type: 'PaymentSucceeded' })).toHaveLength(1);
    expect(
      await db('orders')
        .where({ id: order.id })
        .first('payment_status', 'status', 'payment_reference', 'paid_amount'),
    ).toEqual({
      payment_status: 'paid',
      status: 'processing',
      payment_reference: paid.payment_intent,
      paid_amount: 1250,
    });
    await stack.smtp.waitFor((m) => m.subject === `Payment received for order #${order.id}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(
      stack.smtp.messages.filter((m) => m.subject === `Payment received for order #${order.id}`),
    ).toHaveLength(1);
    expect(await fetch(`${order.orderUrl}&payment=done`).then((r) => r.text())).toContain('Payment received');
  });

  it('refuses a bad, missing or stale signature with a 400 and changes nothing', async () => {
    const { order } = await placedOrder(1);
    const paid = stack.stripe.complete(sessionOf(order.paymentUrl).id);
    const delivery = stack.stripe.event('checkout.session.completed', paid);
    // The worker finishes with the new order first (outbox relayed, confirmation sent): only the
    // webhook could change anything after this.
    const { db } = stack.app.services;
    await expect
      .poll(async () => {
        const pending = await db('outbox').count({ n: '*' }).first();
        const row = await db('orders').where({ id: order.id }).first('confirmation_sent');
        return Number(pending?.n) === 0 && row.confirmation_sent;
      })
      .toBe(true);
    const tables = await watchedTables(stack.app.services.db);
    const before = await fingerprint(stack.app.services.db, tables);
    expect(await deliver(delivery, 'whsec_someone_else')).toEqual({
      status: 400,
      body: { message: 'Invalid Stripe signature.' },
    });
    expect((await deliver(delivery, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600)).status).toBe(400);
    const unsigned = await fetch(`${stack.app.url}/api/payments/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: delivery.payload,
    });
    expect(unsigned.status).toBe(400);
    expect((await unsigned.json()).message).toBe('Missing Stripe-Signature header.');
    const tampered = {
      ...delivery,
      payload: delivery.payload.replace('"amount_total":1250', '"amount_total":1'),
    };
    expect((await deliver({ ...tampered, signature: delivery.signature })).status).toBe(400);
    expect(changedTables(before, await fingerprint(stack.app.services.db, tables))).toEqual([]);
    // An event for no order of ours is acknowledged (Stripe would retry it for days) and logged.
    const stray = stack.stripe.event('checkout.session.completed', {
      ...paid,
      client_reference_id: '99999999',
    });
    expect((await deliver(stray)).body.outcome).toBe('unknown-order');
  });

  it('pays an order only from its own Checkout Session for its total: any other payment is kept to review', async () => {
    const { db } = stack.app.services;
    const { order, product } = await placedOrder(1);
    await createProductFileRow(db, product.id, 'Field Notes PDF');
    const own = stack.stripe.complete(sessionOf(order.paymentUrl).id);
    // A Payment Link or another integration on the same account, naming this order.
    const strays = [
      { ...own, id: 'cs_test_payment_link', payment_intent: 'pi_test_elsewhere' },
      { ...own, amount_total: 1 },
      { ...own, currency: 'jpy' },
    ].map((object) => stack.stripe.event('checkout.session.completed', object));
    for (const stray of strays) expect((await deliver(stray)).body.outcome).toBe('to-review');
    expect(
      await db('orders').where({ id: order.id }).first('status', 'payment_status', 'paid_amount'),
    ).toEqual({ status: 'pending', payment_status: 'unpaid', paid_amount: 0 });
    expect(await db('download_grants').where({ order_id: order.id })).toEqual([]);
    const reviews = await db('order_events')
      .where({ order_id: order.id, type: 'PaymentToReview' })
      .orderBy('version');
    expect(reviews.map((e) => [e.data.eventId, e.data.reason])).toEqual([
      [strays[0].id, 'It was not made on a payment page opened for this order.'],
      [strays[1].id, 'It was for $0.01, not the order’s total of $12.50.'],
      [strays[2].id, 'It was made in JPY, not in the order’s USD.'],
    ]);
    const page = await fetch(`${stack.app.url}/admin/orders/${order.id}`, { headers: admin }).then((r) =>
      r.text(),
    );
    expect(page).toContain('Payment to review');
    for (const stray of strays) expect(page).toContain(`Stripe event ${stray.id}`);

    // The order's own payment still pays it, and releases its download.
    expect((await deliver(stack.stripe.event('checkout.session.completed', own))).body.outcome).toBe(
      'applied',
    );
    expect(await db('orders').where({ id: order.id }).first('payment_status', 'paid_amount')).toEqual({
      payment_status: 'paid',
      paid_amount: 1250,
    });
    expect(await db('download_grants').where({ order_id: order.id })).toHaveLength(1);
  });

  it('refuses a signature dated more than 5 minutes ahead, as one more than 5 minutes old', async () => {
    const { order } = await placedOrder(1);
    const delivery = stack.stripe.event(
      'checkout.session.completed',
      stack.stripe.complete(sessionOf(order.paymentUrl).id),
    );
    const now = Math.floor(Date.now() / 1000);
    expect(await deliver(delivery, WEBHOOK_SECRET, now + 600)).toEqual({
      status: 400,
      body: { message: 'Invalid Stripe signature.' },
    });
    expect(
      (await stack.app.services.db('orders').where({ id: order.id }).first('payment_status')).payment_status,
    ).toBe('unpaid');
    // Within the tolerance (a clock a little ahead of ours) it is Stripe's.
    expect((await deliver(delivery, WEBHOOK_SECRET, now + 60)).body.outcome).toBe('applied');
  });

  it('answers 400 to a correctly signed body that is not an event, and logs it', async () => {
    const bodies = [
      JSON.stringify({ id: 'evt_no_data', object: 'event', type: 'checkout.session.completed' }),
      JSON.stringify({ id: 'evt_null', object: 'event', type: 'checkout.session.completed', data: null }),
      JSON.stringify({ id: 'evt_no_object', object: 'event', type: 'charge.refunded', data: {} }),
      JSON.stringify([{ id: 'evt_in_array', type: 'checkout.session.completed' }]),
      'null',
    ];
    for (const body of bodies)
      expect(await deliver(stack.stripe.signed(body))).toEqual({
        status: 400,
        body: { message: 'This is not a Stripe event.' },
      });
    expect(stack.app.logs.filter((l) => l.msg === 'signed Stripe webhook is not an event')).toHaveLength(
      bodies.length,
    );
  });

  it('refunds through Stripe’s Refunds API, and records a refund made in Stripe’s dashboard', async () => {
    const { order } = await placedOrder(2);
    const paid = stack.stripe.complete(sessionOf(order.paymentUrl).id);
    await deliver(stack.stripe.event('checkout.session.completed', paid));
    const refund = await fetch(`${stack.app.url}/api/admin/orders/${order.id}?action=refund`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ amount: 500 }),
    });
    expect(refund.status).toBe(200);
    const sent = stack.stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(sent.at(-1)?.body).toMatchObject({ payment_intent: paid.payment_intent, amount: '500' });
    expect(sent.at(-1)?.idempotencyKey).toBe(`refund-${order.id}-0-500`);
    const body = await refund.json();
    expect(body.order).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 500 });
    // Found by type: the worker may record an earlier mail's event just after it.
    expect(body.events.find((e: { type: string }) => e.type === 'RefundIssued')).toMatchObject({
      type: 'RefundIssued',
      data: { amount: 500, refundId: expect.stringMatching(/^re_/) },
    });

    // Stripe reports our own refund back: nothing new. Then one made in its dashboard: recorded.
    const charge = (amountRefunded: number) => ({
      id: 'ch_1',
      object: 'charge',
      payment_intent: paid.payment_intent,
      amount: 2500,
      amount_refunded: amountRefunded,
    });
    expect((await deliver(stack.stripe.event('charge.refunded', charge(500)))).body.outcome).toBe('ignored');
    expect((await deliver(stack.stripe.event('charge.refunded', charge(2500)))).body.outcome).toBe('applied');
    const { db } = stack.app.services;
    expect(await db('orders').where({ id: order.id }).first('payment_status', 'refunded_amount')).toEqual({
      payment_status: 'refunded',
      refunded_amount: 2500,
    });
    const more = await fetch(`${stack.app.url}/api/admin/orders/${order.id}?action=refund`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ amount: 1 }),
    });
    expect(more.status).toBe(409);
    expect((await more.json()).message).toBe('This order has already been refunded in full.');
  });

  it('takes no payment for a free order: it is paid the moment it is placed', async () => {
    const product = await createProductRow(stack.app.services.db, {
      name: 'Free sampler',
      price: 0,
      stock: null,
    });
    const guest = new GuestClient(stack.app);
    await guest.add(product.id, 1);
    const res = await guest.checkout(validCheckout);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ paymentStatus: 'paid', status: 'processing', totalAmount: 0 });
    expect(res.body.paymentUrl).toBeUndefined();
    const row = await stack.app.services
      .db('orders')
      .where({ id: res.body.id })
      .first('payment_method', 'hold_until');
    expect(row).toEqual({ payment_method: 'free', hold_until: null });
    expect(stack.stripe.requests.some((r) => r.body.client_reference_id === String(res.body.id))).toBe(false);
  });

  it('offers Pay now on the order page, with a new session once the old one expired', async () => {
    const { order } = await placedOrder(1);
    const first = sessionOf(order.paymentUrl);
    const key = new URL(order.orderUrl).searchParams.get('key') ?? '';
    const payNow = () =>
      fetch(`${stack.app.url}/orders/${order.id}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.app.url },
        body: new URLSearchParams({ key }),
      });
    const same = await payNow();
    expect(same.status).toBe(303);
    expect(same.headers.get('location')).toBe(first.url);
    first.status = 'expired';
    const renewed = await payNow();
    expect(renewed.status).toBe(303);
    expect(renewed.headers.get('location')).not.toBe(first.url);
    expect(renewed.headers.get('location')).toMatch(new RegExp(`^${stack.stripe.url}/pay/cs_test_`));
    // Without the key (and not the session that placed it), the order does not exist.
    const stranger = await fetch(`${stack.app.url}/orders/${order.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: stack.app.url },
      body: new URLSearchParams({ key: 'x'.repeat(32) }),
    });
    expect(stranger.status).toBe(404);
  });

  it('closes the payment page when the order is cancelled or expires, one already closed included', async () => {
    const { db } = stack.app.services;
    const { order: cancelled, product } = await placedOrder(2);
    const res = await fetch(`${stack.app.url}/api/admin/orders/${cancelled.id}?action=cancel`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ reason: 'Customer asked' }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).order).toMatchObject({ status: 'cancelled', paymentStatus: 'unpaid' });
    const first = sessionOf(cancelled.paymentUrl);
    expect(first.status).toBe('expired');
    expect(
      stack.stripe.requests.filter((r) => r.path === `/v1/checkout/sessions/${first.id}/expire`),
    ).toHaveLength(1);
    expect(await stockOf(db, product.id)).toBe(10);

    const { order: lapsed } = await placedOrder(1);
    expect(await expireOrder(stack.app.services, lapsed.id, new Date(Date.now() + 2 * 60 * 60_000))).toBe(
      true,
    );
    expect(sessionOf(lapsed.paymentUrl).status).toBe('expired');

    // The customer paid on Stripe's page as the hold ran out: Stripe refuses to expire it, the
    // order expires all the same, and the payment is recorded when its event arrives.
    const { order: late } = await placedOrder(1);
    stack.stripe.complete(sessionOf(late.paymentUrl).id);
    expect(await expireOrder(stack.app.services, late.id, new Date(Date.now() + 2 * 60 * 60_000))).toBe(true);
    expect((await db('orders').where({ id: late.id }).first('status')).status).toBe('expired');
    expect(
      stack.app.logs.some((l) => l.orderId === late.id && l.msg === 'Checkout Session already closed'),
    ).toBe(true);
  });

  it('mails a cancellation with its reason, and a payment after it as one to be refunded, refunded when the writer confirms', async () => {
    const { db } = stack.app.services;
    const { order } = await placedOrder(1);
    // The customer pays on Stripe's page while the writer cancels.
    const paid = stack.stripe.complete(sessionOf(order.paymentUrl).id);
    const cancel = await fetch(`${stack.app.url}/api/admin/orders/${order.id}?action=cancel`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ reason: 'Out of print' }),
    });
    expect(cancel.status).toBe(200);
    const cancelled = await stack.smtp.waitFor((m) => m.subject === `Order #${order.id} cancelled`);
    expect(cancelled.to).toEqual(['ada@example.com']);
    expect(cancelled.text).toContain(
      `Your order #${order.id} has been cancelled. Reason: Out of print. Nothing will be charged.`,
    );

    expect((await deliver(stack.stripe.event('checkout.session.completed', paid))).body.outcome).toBe(
      'applied',
    );
    expect(
      await db('orders').where({ id: order.id }).first('status', 'payment_status', 'refund_needed'),
    ).toEqual({
      status: 'cancelled',
      payment_status: 'paid',
      refund_needed: true,
    });
    const late = await stack.smtp.waitFor(
      (m) => m.subject === `Payment received for order #${order.id}: it will be refunded`,
    );
    expect(late.text).toContain(
      `We received your payment of $12.50 for your order #${order.id}, but the order had been cancelled (Out of print), so nothing will be sent. We will refund your payment in full`,
    );
    expect(late.text).not.toContain('ships');
    expect(
      stack.smtp.messages.filter((m) => m.subject === `Payment received for order #${order.id}`),
    ).toEqual([]);
    // Nothing is refunded until the writer confirms with Refund on the order.
    expect(stack.stripe.refunds.filter((r) => r.payment_intent === paid.payment_intent)).toEqual([]);
    const refund = await fetch(`${stack.app.url}/api/admin/orders/${order.id}?action=refund`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ amount: 1250, restock: false }),
    });
    expect(refund.status).toBe(200);
    expect(stack.stripe.refunds.filter((r) => r.payment_intent === paid.payment_intent)).toHaveLength(1);
    await stack.smtp.waitFor((m) => m.subject === `Refund issued for order #${order.id}`);
  });

  it('keeps a payment that arrives after expiry: the order re-opens while its stock is there, else it is flagged', async () => {
    const { db } = stack.app.services;
    const later = new Date(Date.now() + 2 * 60 * 60_000);
    const { order: reopened, product } = await placedOrder(2);
    const paid = stack.stripe.complete(sessionOf(reopened.paymentUrl).id);
    expect(await expireOrder(stack.app.services, reopened.id, later)).toBe(true);
    expect(await stockOf(db, product.id)).toBe(10);
    expect((await deliver(stack.stripe.event('checkout.session.completed', paid))).body.outcome).toBe(
      'applied',
    );
    expect(
      await db('orders').where({ id: reopened.id }).first('status', 'payment_status', 'refund_needed'),
    ).toEqual({ status: 'processing', payment_status: 'paid', refund_needed: false });
    expect(await stockOf(db, product.id)).toBe(8);

    const { order: flagged, product: soldOut } = await placedOrder(2);
    const paidLate = stack.stripe.complete(sessionOf(flagged.paymentUrl).id);
    expect(await expireOrder(stack.app.services, flagged.id, later)).toBe(true);
    await setStock(db, soldOut.id, 1); // sold elsewhere meanwhile
    expect((await deliver(stack.stripe.event('checkout.session.completed', paidLate))).body.outcome).toBe(
      'applied',
    );
    expect(
      await db('orders')
        .where({ id: flagged.id })
        .first('status', 'payment_status', 'paid_amount', 'refund_needed'),
    ).toEqual({ status: 'expired', payment_status: 'paid', paid_amount: 2500, refund_needed: true });
    expect(await stockOf(db, soldOut.id)).toBe(1);
    const stats = await fetch(`${stack.app.url}/api/admin?action=stats`, { headers: admin }).then((r) =>
      r.json(),
    );
    expect(stats.stats.orders.refundNeeded).toBeGreaterThanOrEqual(1);
  });

  it('records a failed delayed payment, and lets an expired payment page leave the order its own hold', async () => {
    const { db } = stack.app.services;
    const { order, product } = await placedOrder(1);
    const session = sessionOf(order.paymentUrl);
    const failed = await deliver(
      stack.stripe.event('checkout.session.async_payment_failed', { ...session, status: 'complete' }),
    );
    expect(failed).toEqual({ status: 200, body: { received: true, outcome: 'applied' } });
    const failure = await db('order_events').where({ order_id: order.id, type: 'PaymentFailed' });
    expect(failure.map((e) => e.data)).toEqual([{ reason: 'The payment method was declined.' }]);

    session.status = 'expired';
    const expired = await deliver(stack.stripe.event('checkout.session.expired', { ...session }));
    expect(expired.body.outcome).toBe('ignored');
    expect(await db('orders').where({ id: order.id }).first('status', 'payment_status')).toEqual({
      status: 'pending',
      payment_status: 'unpaid',
    });
    expect(await stockOf(db, product.id)).toBe(9);
    expect(await db('order_events').where({ order_id: order.id, type: 'OrderExpired' })).toHaveLength(0);
  });
});
