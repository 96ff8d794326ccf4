import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder } from '../../src/checkout/place-order.ts';
import { updatePaymentSettings } from '../../src/orders/payment-settings.ts';
import { expireDueOrders, expireOrder, markOrderPaid } from '../../src/orders/payments.ts';
import { rebuildProjections } from '../../src/orders/store.ts';
import { setStock, stockOf } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { untilOrderMailsRecorded } from '../support/order-mails.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { startSmtpServer } from '../support/smtp.ts';

// Manual payment mode: no Stripe keys, as `npm start` runs.
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let admin: Record<string, string>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ env: { SMTP_URL: smtp.url }, withWorker: true });
  admin = { ...(await signedInSession(app, { role: 'admin' })).headers, 'content-type': 'application/json' };
  await updatePaymentSettings(app.services.db, {
    paymentInstructions: 'Bank transfer to IBAN GB00 PENS 0000 0000 00\nReference: your order number',
    paymentHoldMinutes: 4320,
  });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

async function adminCall(method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: admin,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function guestOrder(price = 2500, stock: number | null = 5) {
  const product = await createProductRow(app.services.db, { price, stock });
  const guest = new GuestClient(app);
  await guest.add(product.id, 2);
  const placed = await guest.checkout({ ...validCheckout, customerEmail: `buyer${product.id}@example.com` });
  expect(placed.status).toBe(201);
  return { guest, product, order: placed.body };
}

const stockOfProduct = (id: number) => stockOf(app.services.db, id);

describe('manual payment', () => {
  it('shows the instructions, lets the admin mark the order paid, and mails the customer once', async () => {
    const { guest, order } = await guestOrder();
    expect(order.paymentInstructions).toContain('IBAN GB00');
    expect(order.paymentUrl).toBeUndefined();

    const confirmation = await smtp.waitFor((m) => m.subject === `Order #${order.id} confirmed`);
    expect(confirmation.text).toContain('How to pay:');
    expect(confirmation.text).toContain('IBAN GB00 PENS');
    expect(confirmation.text).toContain(order.orderUrl);

    // The order's link works for anyone holding it; without the key, another visitor gets 404.
    const page = await fetch(order.orderUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Awaiting payment');
    expect(html).toContain('IBAN GB00 PENS');
    const stranger = await fetch(`${app.url}/orders/${order.id}`);
    expect(stranger.status).toBe(404);
    await stranger.arrayBuffer();
    const forged = await fetch(`${app.url}/orders/${order.id}?key=${'A'.repeat(32)}`);
    expect(forged.status).toBe(404);
    await forged.arrayBuffer();
    // The session that placed it sees it without the key.
    const own = await fetch(`${app.url}/orders/${order.id}`, {
      headers: { 'x-session-id': guest.sid ?? '' },
    });
    expect(own.status).toBe(200);
    await own.arrayBuffer();

    const paid = await adminCall('POST', `/api/admin/orders/${order.id}?action=mark-paid`, {
      reference: 'BT-4711',
    });
    expect(paid.status).toBe(200);
    expect(paid.body.order).toMatchObject({
      paymentStatus: 'paid',
      status: 'processing',
      paymentMethod: 'manual',
      paymentReference: 'BT-4711',
      paidAmount: 5000,
    });
    expect(paid.body.events.map((e: { type: string }) => e.type)).toContain('PaymentSucceeded');
    const again = await adminCall('POST', `/api/admin/orders/${order.id}?action=mark-paid`, {});
    expect(again).toMatchObject({ status: 409, body: { message: 'Payment has already been recorded.' } });

    await smtp.waitFor((m) => m.subject === `Payment received for order #${order.id}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(smtp.messages.filter((m) => m.subject === `Payment received for order #${order.id}`)).toHaveLength(
      1,
    );
    expect((await fetch(order.orderUrl).then((r) => r.text())).includes('Payment received')).toBe(true);

    const listed = await adminCall('GET', '/api/admin/orders?paymentStatus=paid');
    expect(listed.body.orders.map((o: { id: number }) => o.id)).toContain(order.id);
    const unpaid = await adminCall('GET', '/api/admin/orders?paymentStatus=unpaid');
    expect(unpaid.body.orders.map((o: { id: number }) => o.id)).not.toContain(order.id);
    expect((await adminCall('GET', '/api/admin/orders?paymentStatus=owed')).status).toBe(400);
  });

  it('refunds in parts, never more than was paid, even when two refunds race', async () => {
    const { order, product } = await guestOrder(3000, 10);
    await adminCall('POST', `/api/admin/orders/${order.id}?action=mark-paid`, {});
    const part = await adminCall('POST', `/api/admin/orders/${order.id}?action=refund`, { amount: 1000 });
    expect(part.status).toBe(200);
    expect(part.body.order).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 1000 });
    const tooMuch = await adminCall('POST', `/api/admin/orders/${order.id}?action=refund`, { amount: 5001 });
    expect(tooMuch).toMatchObject({
      status: 422,
      body: { message: 'A refund cannot be more than what is left of the payment ($50.00).' },
    });
    expect(
      (await adminCall('POST', `/api/admin/orders/${order.id}?action=refund`, { amount: 'all' })).status,
    ).toBe(400);

    // Two refunds of $30 race for the $50 left: one wins, the other is refused.
    const raced = await Promise.all(
      [1, 2].map(() =>
        adminCall('POST', `/api/admin/orders/${order.id}?action=refund`, { amount: 3000, restock: true }),
      ),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([200, 422]);
    const after = await adminCall('GET', `/api/admin/orders/${order.id}`);
    expect(after.body.order).toMatchObject({
      paymentStatus: 'partially_refunded',
      refundedAmount: 4000,
      paidAmount: 6000,
    });
    // The restock gave the 2 units back once.
    expect(await stockOfProduct(product.id)).toBe(10);

    const rest = await adminCall('POST', `/api/admin/orders/${order.id}?action=refund`, {
      amount: 2000,
      restock: true,
    });
    expect(rest.body.order).toMatchObject({ paymentStatus: 'refunded', refundedAmount: 6000 });
    expect(await stockOfProduct(product.id)).toBe(10);
    const refundMails = await smtp.waitFor((m) => m.subject === `Refund issued for order #${order.id}`);
    expect(refundMails.text).toMatch(/refunded \$(10|30|20)\.00/);
  });

  it('counts paid money minus refunds as revenue', async () => {
    const dashboard = await adminCall('GET', '/api/admin?action=stats');
    const { rows } = await app.services.db.raw(
      'SELECT sum(paid_amount - refunded_amount)::int AS net FROM orders',
    );
    expect(dashboard.body.stats.revenue.cents).toBe(rows[0].net);
    expect(rows[0].net).toBe(5000); // the first test's $50; the second was refunded in full
  });
});

describe('stock holds', () => {
  it('expires an unpaid order at its deadline and gives its stock back exactly once while the sweep races', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: 4 });
    const guest = new GuestClient(app);
    await guest.add(product.id, 3);
    const owner = { userId: null, sessionId: guest.sid };
    const { order } = await placeOrder(db, {
      owner,
      checkout: validCheckout,
      idempotencyKey: null,
      currency: 'usd',
      holdMs: 1_500,
    });
    expect(await stockOfProduct(product.id)).toBe(1);
    expect(await expireOrder(app.services, order.id)).toBe(false); // not yet
    // The worker's delayed job and five sweeps run at the deadline.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    await Promise.all([
      ...Array.from({ length: 5 }, () => expireDueOrders(app.services)),
      expireOrder(app.services, order.id),
    ]);
    const row = await db('orders').where({ id: order.id }).first('status', 'payment_status');
    expect(row).toEqual({ status: 'expired', payment_status: 'unpaid' });
    expect(await stockOfProduct(product.id)).toBe(4);
    expect(await db('order_events').where({ order_id: order.id, type: 'OrderExpired' })).toHaveLength(1);
    await smtp.waitFor((m) => m.subject === `Order #${order.id} expired`);

    // Paid after it expired: the money is kept and the order re-opened, its stock taken again.
    await markOrderPaid(db, order.id, 'late transfer', {});
    expect(
      await db('orders').where({ id: order.id }).first('status', 'payment_status', 'refund_needed'),
    ).toEqual({
      status: 'processing',
      payment_status: 'paid',
      refund_needed: false,
    });
    expect(await stockOfProduct(product.id)).toBe(1);
  });

  it('never expires a paid order, and flags a late payment whose stock is gone for a refund', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: 2 });
    const guest = new GuestClient(app);
    await guest.add(product.id, 2);
    const { order: paid } = await placeOrder(db, {
      owner: { userId: null, sessionId: guest.sid },
      checkout: validCheckout,
      idempotencyKey: null,
      currency: 'usd',
      holdMs: 500,
    });
    await markOrderPaid(db, paid.id, null, {});
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await expireDueOrders(app.services)).toBe(0);
    expect(await expireOrder(app.services, paid.id)).toBe(false);
    expect((await db('orders').where({ id: paid.id }).first('status')).status).toBe('processing');

    await setStock(db, product.id, 2);
    await guest.add(product.id, 2);
    const { order: late } = await placeOrder(db, {
      owner: { userId: null, sessionId: guest.sid },
      checkout: validCheckout,
      idempotencyKey: null,
      currency: 'usd',
      holdMs: 300,
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await expireOrder(app.services, late.id)).toBe(true);
    await setStock(db, product.id, 0); // sold elsewhere meanwhile
    await markOrderPaid(db, late.id, null, {});
    expect(
      await db('orders').where({ id: late.id }).first('status', 'payment_status', 'refund_needed'),
    ).toEqual({
      status: 'expired',
      payment_status: 'paid',
      refund_needed: true,
    });
    const stats = await adminCall('GET', '/api/admin?action=stats');
    expect(stats.body.stats.orders.refundNeeded).toBeGreaterThanOrEqual(1);
  });

  it('rebuilds the projections from the events, payments included', async () => {
    const { db } = app.services;
    const columns = [
      'id',
      'status',
      'payment_status',
      'paid_amount',
      'refunded_amount',
      'payment_method',
      'payment_reference',
      'hold_until',
      'refund_needed',
      'version',
    ];
    // The worker may still be sending the earlier tests' order mails, and each records an event
    // that moves its order's version: compare once every one of them is recorded.
    await untilOrderMailsRecorded(db);
    const before = await db('orders').orderBy('id').select(columns);
    expect(before.length).toBeGreaterThan(3);
    await rebuildProjections(db);
    expect(await db('orders').orderBy('id').select(columns)).toEqual(before);
  });
});

describe('the admin orders API', () => {
  it('lists orders by status, search and page, and cancels an unpaid one', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { price: 700, stock: null });
    const domain = `list${product.id}.example.org`;
    const ids: number[] = [];
    for (let i = 0; i < 22; i++) {
      const guest = new GuestClient(app);
      await guest.add(product.id, 1);
      const { order } = await placeOrder(db, {
        owner: { userId: null, sessionId: guest.sid },
        checkout: { ...validCheckout, customerEmail: `buyer${i}@${domain}` },
        idempotencyKey: null,
        currency: 'usd',
      });
      ids.push(order.id);
    }
    const newestFirst = [...ids].reverse();
    const page1 = await adminCall('GET', `/api/admin/orders?search=${domain}`);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 20, total: 22, pages: 2 });
    expect(page1.body.orders.map((o: { id: number }) => o.id)).toEqual(newestFirst.slice(0, 20));
    const page2 = await adminCall('GET', `/api/admin/orders?search=${domain}&page=2`);
    expect(page2.body.orders.map((o: { id: number }) => o.id)).toEqual(newestFirst.slice(20));
    const one = await adminCall('GET', `/api/admin/orders?search=BUYER7@${domain.toUpperCase()}`);
    expect(one.body.orders.map((o: { id: number }) => o.id)).toEqual([ids[7]]);
    const byNumber = await adminCall('GET', `/api/admin/orders?search=${ids[3]}`);
    expect(byNumber.body.orders.map((o: { id: number }) => o.id)).toContain(ids[3]);

    const cancelled = await adminCall('POST', `/api/admin/orders/${ids[0]}?action=cancel`, {
      reason: 'Ordered twice',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.order).toMatchObject({ status: 'cancelled', paymentStatus: 'unpaid' });
    // Found by type: the worker may record an earlier mail's event just after it.
    expect(cancelled.body.events.find((e: { type: string }) => e.type === 'OrderCancelled')).toMatchObject({
      type: 'OrderCancelled',
      data: { reason: 'Ordered twice', refunded: false },
    });
    const again = await adminCall('POST', `/api/admin/orders/${ids[0]}?action=cancel`, {});
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'An order that is cancelled cannot be cancelled.' },
    });
    const byStatus = await adminCall('GET', `/api/admin/orders?search=${domain}&status=cancelled`);
    expect(byStatus.body.orders.map((o: { id: number }) => o.id)).toEqual([ids[0]]);
    const pending = await adminCall('GET', `/api/admin/orders?search=${domain}&status=pending`);
    expect(pending.body.pagination.total).toBe(21);

    expect((await adminCall('GET', '/api/admin/orders?status=lost')).status).toBe(400);
    expect((await adminCall('GET', '/api/admin/orders?page=0')).status).toBe(400);
    expect((await adminCall('GET', '/api/admin/orders?status=pending&status=paid')).status).toBe(400);
    expect((await adminCall('POST', `/api/admin/orders/${ids[1]}?action=archive`, {})).body.message).toBe(
      'Unknown action: use mark-paid, refund, cancel, ship, deliver, resend-downloads or reset-download',
    );
  });
});

describe('the settings form', () => {
  it('refuses a hold shorter than Stripe allows, with the field named', async () => {
    const form = new URLSearchParams({
      intent: 'save-payments',
      paymentInstructions: 'x',
      paymentHoldMinutes: '5',
    });
    const res = await fetch(`${app.url}/admin?tab=settings`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    const text = await res.text();
    expect(text).toContain('Hold time must be a whole number of minutes from 30 to 43200 (30 days)');
    const settings = await app.services.db('blog_settings').where({ id: 1 }).first('payment_hold_minutes');
    expect(settings.payment_hold_minutes).toBe(4320);
  });
});
