import { describe, expect, it } from 'vitest';
import { sendOrderConfirmation } from '../../src/orders/confirmation.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';

const WEBHOOK_SECRET = 'whsec_penstand_currency';
const stack = setUpCardPaymentsApp(WEBHOOK_SECRET, { env: { CURRENCY: 'eur' } });

describe('CURRENCY', () => {
  it('prices the shop, the Checkout Session, the payment and the mails in the configured currency', async () => {
    const { db, mailer } = stack.app.services;
    const product = await createProductRow(db, { name: 'Carnet', price: 1250, stock: 5 });
    const page = await fetch(`${stack.app.url}/product/${product.id}`).then((r) => r.text());
    expect(page).toContain('€12.50');
    expect(page).not.toContain('$12.50');

    const guest = new GuestClient(stack.app);
    await guest.add(product.id, 2);
    const placed = await guest.checkout(validCheckout);
    expect(placed.status).toBe(201);
    const order = placed.body as { id: number; paymentUrl: string };
    const session = stack.stripe.sessions.get(order.paymentUrl.split('/pay/')[1]);
    expect(session).toMatchObject({ currency: 'eur', amount_total: 2500 });

    const delivery = stack.stripe.event(
      'checkout.session.completed',
      stack.stripe.complete(session?.id ?? ''),
    );
    await fetch(`${stack.app.url}/api/payments/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature(WEBHOOK_SECRET) },
      body: delivery.payload,
    });
    const payment = await db('order_events').where({ order_id: order.id, type: 'PaymentSucceeded' }).first();
    expect(payment.data).toMatchObject({ amount: 2500, currency: 'eur' });

    await sendOrderConfirmation(db, mailer, order.id);
    const mail = await stack.smtp.waitFor((m) => m.subject === `Order #${order.id} confirmed`);
    expect(mail.text).toContain('Total: €25.00');

    const admin = {
      ...(await signedInSession(stack.app, { role: 'admin' })).headers,
      'content-type': 'application/json',
    };
    const tooMuch = await fetch(`${stack.app.url}/api/admin/orders/${order.id}?action=refund`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ amount: 2501 }),
    });
    expect(tooMuch.status).toBe(422);
    expect((await tooMuch.json()).message).toBe(
      'A refund cannot be more than what is left of the payment (€25.00).',
    );
  });
});
