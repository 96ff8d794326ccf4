import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../../src/orders/store.ts';
import { SHOP_MESSAGES } from '../../src/shop/messages.ts';
import { TAX_MESSAGES } from '../../src/shop/tax-rules.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { pdfText } from '../support/pdf.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { deliverSigned, type SignedDelivery, setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';
import { until } from '../support/until.ts';

const WEBHOOK_SECRET = 'whsec_stripe_tax';
const stack = setUpCardPaymentsApp(WEBHOOK_SECRET, { withWorker: true });
const germany = { ...validCheckout, country: 'DE', zipCode: '10115' };

/** An admin of the app the getter gives once it has started (signed in before the block's tests). */
function adminOf(appOf: () => TestApp) {
  let headers: Record<string, string> = {};
  beforeAll(async () => {
    headers = (await signedInSession(appOf(), { role: 'admin' })).headers;
  });
  return {
    api: async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${appOf().url}${path}`, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return {
        status: res.status,
        res,
        body: res.headers.get('content-type')?.includes('json') ? await res.json() : null,
      };
    },
    saveTax: (fields: Record<string, string>) =>
      fetch(`${appOf().url}/admin?tab=settings`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'save-tax', ...fields }),
      }).then(async (r) => ({ status: r.status, text: (await r.text()).replaceAll('<!-- -->', '') })),
  };
}

/** A signed webhook delivery's HTTP status. */
async function deliver(delivery: SignedDelivery) {
  return (await deliverSigned(stack.app, delivery, WEBHOOK_SECRET)).status;
}

describe('Stripe Tax', () => {
  const admin = adminOf(() => stack.app);

  it('lets Stripe calculate the tax: the session asks for it, the webhook takes it, the invoice shows it', async () => {
    const { db } = stack.app.services;
    // Penstand's own rate is not charged while Stripe Tax is on.
    expect(
      (await admin.api('POST', '/api/admin/tax-rates', { country: 'DE', rate: 19, name: 'VAT' })).status,
    ).toBe(201);
    const saved = await admin.saveTax({ stripeTax: 'on' });
    expect(saved.text).toContain(TAX_MESSAGES.saved);
    expect(saved.text).toContain('Let Stripe calculate tax (Stripe Tax)');
    const lamp = await createProductRow(db, { name: 'Lamp', category: 'Physical', price: 4000, stock: null });
    const guest = new GuestClient(stack.app);
    await guest.add(lamp.id);
    const page = (path: string) =>
      fetch(`${stack.app.url}${path}`, { headers: { cookie: `sid=${guest.sid}` } }).then((r) => r.text());
    expect(await page(`/product/${lamp.id}`)).toContain(SHOP_MESSAGES.taxAddedNote);
    expect(await page('/checkout')).toContain(SHOP_MESSAGES.taxAtPaymentNote);
    const placed = await guest.checkout(germany);
    expect(placed.status).toBe(201);
    const id = placed.body.id;
    const before = (await admin.api('GET', `/api/admin/orders/${id}`)).body.order;
    expect(before).toMatchObject({ subtotal: 4000, tax: 0 });
    expect(before.total).toBe(4000 + before.shipping);

    // The session: automatic tax on, each price exclusive of tax, no tax line of Penstand's.
    const sessionId = placed.body.paymentUrl.split('/pay/')[1];
    const create = stack.stripe.requests.find(
      (r) => r.path === '/v1/checkout/sessions' && r.method === 'POST',
    );
    expect(create?.body.automatic_tax).toEqual({ enabled: 'true' });
    const session = stack.stripe.sessions.get(sessionId);
    expect(session?.line_items_sent.every((l) => l.tax_behavior === 'exclusive')).toBe(true);
    expect(session?.line_items_sent.some((l) => l.name.startsWith('Tax'))).toBe(false);
    expect(session?.automatic_tax).toMatchObject({ enabled: true, status: 'requires_location_inputs' });

    // Paid: the stand-in's 10% of the lines (the lamp and its shipping), on top of the total.
    const paid = stack.stripe.complete(sessionId);
    const tax = Math.round(before.total / 10);
    expect(paid.total_details.amount_tax).toBe(tax);
    expect(paid.amount_total).toBe(before.total + tax);

    // A session whose lines are not the order's (another integration's) is kept for review.
    expect(
      await deliver(stack.stripe.event('checkout.session.completed', { ...paid, amount_subtotal: 100 })),
    ).toBe(200);
    expect(await db('orders').where({ id }).first('payment_status', 'tax_amount')).toEqual({
      payment_status: 'unpaid',
      tax_amount: 0,
    });
    // Its own session's tax is the order's; a redelivery changes nothing.
    const completed = stack.stripe.event('checkout.session.completed', paid);
    expect(await deliver(completed)).toBe(200);
    expect(await deliver(completed)).toBe(200);
    const after = (await admin.api('GET', `/api/admin/orders/${id}`)).body.order;
    expect(after).toMatchObject({ tax: tax, total: before.total + tax, paymentStatus: 'paid' });
    expect(await db('orders').where({ id }).first('paid_amount')).toEqual({
      paid_amount: before.total + tax,
    });
    const assessed = await db('order_events').where({ order_id: id, type: 'TaxAssessed' });
    expect(assessed.map((e) => e.data)).toEqual([{ amount: tax, sessionId }]);

    const invoice = await admin.api('GET', `/api/admin/orders/${id}/invoice.pdf`);
    expect(invoice.status).toBe(200);
    const text = await pdfText(await invoice.res.arrayBuffer());
    expect(text).toContain(`Tax (Stripe Tax)`);
    expect(text).toContain(`$${(tax / 100).toFixed(2)}`);
    expect(text).toContain(`$${((before.total + tax) / 100).toFixed(2)}`);

    // The tax is an event: a rebuild reproduces the order's tax and total. The worker's mails
    // (the confirmation, 'payment received') append events of their own: the rows are read after them.
    await until(async () => {
      const order = await db('orders').where({ id }).first('confirmation_sent');
      const mailed = await db('order_events')
        .where({ order_id: id, type: 'OrderMailSent' })
        .whereRaw(`data->>'kind' = 'payment-received'`)
        .first('id');
      return order.confirmation_sent === true && mailed !== undefined;
    }, "the confirmation and the 'payment received' mail are sent");
    const rows = await db('orders').orderBy('id');
    await rebuildProjections(db);
    expect(await db('orders').orderBy('id')).toEqual(rows);
    await admin.saveTax({});
  });
});

describe('Stripe Tax without Stripe keys', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });
  const manual = adminOf(() => app);

  it('is refused with a clear message, and nothing is saved', async () => {
    const form = await manual.saveTax({ stripeTax: 'on', pricesIncludeTax: 'on' });
    expect(form.text).toContain(TAX_MESSAGES.stripeTaxNeedsKeys);
    expect(form.text).toContain('this shop has no Stripe keys');
    const row = await app.services
      .db('blog_settings')
      .where({ id: 1 })
      .first('stripe_tax', 'prices_include_tax');
    expect(row ?? { stripe_tax: false, prices_include_tax: false }).toEqual({
      stripe_tax: false,
      prices_include_tax: false,
    });
  });
});
