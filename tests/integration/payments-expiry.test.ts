import { describe, expect, it } from 'vitest';
import { placeOrder } from '../../src/checkout/place-order.ts';
import { stripePaymentUrl } from '../../src/orders/payments.ts';
import { stockOf } from '../../src/shop/stock.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { deliverSigned, setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';
import { until } from '../support/until.ts';

// The worker runs as in production: delayed jobs, the outbox relay, the mail jobs.
const WEBHOOK_SECRET = 'whsec_penstand_expiry';
const stack = setUpCardPaymentsApp(WEBHOOK_SECRET, { withWorker: true });

const stockOfProduct = (id: number) => stockOf(stack.app.services.db, id);

/** Waits for the mails with this subject, then a while longer: a second one would have come by then. */
async function mailsTitled(subject: string, count: number) {
  await until(
    () => stack.smtp.messages.filter((m) => m.subject === subject).length >= count,
    subject,
    20_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return stack.smtp.messages.filter((m) => m.subject === subject);
}

describe('payments with the worker running', () => {
  it('expires an unpaid order by its own delayed job at the deadline and mails the customer once', async () => {
    const { db } = stack.app.services;
    const product = await createProductRow(db, { stock: 3 });
    const guest = new GuestClient(stack.app);
    await guest.add(product.id, 2);
    const { order } = await placeOrder(db, {
      owner: { userId: null, sessionId: guest.sid },
      checkout: validCheckout,
      idempotencyKey: null,
      currency: 'usd',
      cardPayments: true,
      holdMs: 3_000,
    });
    const paymentUrl = await stripePaymentUrl(stack.app.services, order.id);
    const session = stack.stripe.sessions.get(paymentUrl.split('/pay/')[1]);
    expect(await stockOfProduct(product.id)).toBe(1);
    const { hold_until: deadline } = await db('orders').where({ id: order.id }).first('hold_until');

    // The job logs once expireOrder has returned (after the order's row and its Stripe session).
    await until(
      () => stack.app.logs.some((l) => l.msg === 'order expired' && l.orderId === order.id),
      'the expiry job',
      30_000,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(deadline.getTime());
    expect((await db('orders').where({ id: order.id }).first('status')).status).toBe('expired');
    // The order's own job expired it; the sweep (once at start, then each minute) found nothing.
    expect(stack.app.logs.some((l) => l.msg === 'orders expired by the sweep')).toBe(false);
    expect(await stockOfProduct(product.id)).toBe(3);
    expect(await db('order_events').where({ order_id: order.id, type: 'OrderExpired' })).toHaveLength(1);
    expect(session?.status).toBe('expired');

    const mails = await mailsTitled(`Order #${order.id} expired`, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('nothing will be charged');
  });

  it('mails each refund once, whatever Stripe reports back', async () => {
    const { db } = stack.app.services;
    const product = await createProductRow(db, { price: 1500, stock: 5 });
    const guest = new GuestClient(stack.app);
    await guest.add(product.id, 2);
    const placed = await guest.checkout(validCheckout);
    const order = placed.body as { id: number; paymentUrl: string };
    const paid = stack.stripe.complete(order.paymentUrl.split('/pay/')[1]);
    const deliver = async (type: string, object: unknown) => {
      const delivered = await deliverSigned(stack.app, stack.stripe.event(type, object), WEBHOOK_SECRET);
      return delivered.body.outcome;
    };
    expect(await deliver('checkout.session.completed', paid)).toBe('applied');
    const admin = {
      ...(await signedInSession(stack.app, { role: 'admin' })).headers,
      'content-type': 'application/json',
    };
    for (const amount of [500, 700]) {
      const res = await fetch(`${stack.app.url}/api/admin/orders/${order.id}?action=refund`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ amount }),
      });
      expect(res.status).toBe(200);
    }
    // Stripe's own report of the two refunds changes nothing and mails nobody.
    const charge = {
      object: 'charge',
      payment_intent: paid.payment_intent,
      amount: 3000,
      amount_refunded: 1200,
    };
    expect(await deliver('charge.refunded', charge)).toBe('ignored');

    const refunds = await mailsTitled(`Refund issued for order #${order.id}`, 2);
    expect(refunds.map((m) => /refunded (\$\d+\.\d\d)/.exec(m.text)?.[1]).sort()).toEqual(['$5.00', '$7.00']);
    expect(await mailsTitled(`Payment received for order #${order.id}`, 1)).toHaveLength(1);
  });
});
