import { beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../../src/orders/store.ts';
import { SHOP_MESSAGES } from '../../src/shop/messages.ts';
import { TAX_MESSAGES } from '../../src/shop/tax-rules.ts';
import { signedInSession } from '../support/auth.ts';
import { recordedMailKinds } from '../support/order-mails.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { deliverSigned, type SignedDelivery, setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';
import { until } from '../support/until.ts';

const WEBHOOK_SECRET = 'whsec_tax';
const stack = setUpCardPaymentsApp(WEBHOOK_SECRET, { withWorker: true });
let admin: Record<string, string>;
beforeAll(async () => {
  admin = {
    ...(await signedInSession(stack.app, { role: 'admin' })).headers,
    'content-type': 'application/json',
  };
});

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${stack.app.url}${path}`, {
    method,
    headers: admin,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

/** A signed webhook delivery's HTTP status. */
async function deliver(delivery: SignedDelivery) {
  return (await deliverSigned(stack.app, delivery, WEBHOOK_SECRET)).status;
}

const germany = { ...validCheckout, country: 'DE', zipCode: '10115' };

describe('tax rates', () => {
  it('are announced beside the prices of the product page and the cart: nothing without rates, else with or without tax', async () => {
    const { db } = stack.app.services;
    const cap = await createProductRow(db, {
      name: 'Cap',
      category: 'Merchandise',
      price: 1800,
      stock: null,
    });
    const guest = new GuestClient(stack.app);
    await guest.add(cap.id);
    const page = (path: string) =>
      fetch(`${stack.app.url}${path}`, { headers: { cookie: `sid=${guest.sid}` } }).then((r) => r.text());
    const notes = async () => {
      const [product, cart] = [await page(`/product/${cap.id}`), await page('/cart')];
      return [SHOP_MESSAGES.taxAddedNote, SHOP_MESSAGES.taxIncludedNote].map((note) => [
        product.includes(note),
        cart.includes(note),
      ]);
    };
    const saveTax = (fields: Record<string, string>) =>
      fetch(`${stack.app.url}/admin?tab=settings`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'save-tax', ...fields }),
      });

    expect(await notes()).toEqual([
      [false, false],
      [false, false],
    ]);
    const rate = await api('POST', '/api/admin/tax-rates', { country: 'FR', rate: 20, name: 'TVA' });
    expect(await notes()).toEqual([
      [true, true],
      [false, false],
    ]);
    await saveTax({ pricesIncludeTax: 'on' });
    expect(await notes()).toEqual([
      [false, false],
      [true, true],
    ]);
    await saveTax({});
    expect((await api('DELETE', `/api/admin/tax-rates/${rate.body.id}`)).status).toBe(204);
    expect(await notes()).toEqual([
      [false, false],
      [false, false],
    ]);
  });

  it('are added, listed and removed through the admin API, with a clear refusal for bad input', async () => {
    const vat = await api('POST', '/api/admin/tax-rates', { country: 'DE', rate: 19, name: 'VAT' });
    expect(vat.status).toBe(201);
    expect(vat.body).toEqual({
      id: expect.any(Number),
      country: 'DE',
      category: null,
      rate: 19,
      name: 'VAT',
    });
    const books = await api('POST', '/api/admin/tax-rates', {
      country: 'Germany',
      rate: 7,
      name: 'VAT',
      category: 'Books',
    });
    expect(books.body).toMatchObject({ country: 'DE', category: 'Books', rate: 7 });
    for (const [body, message] of [
      [{ country: 'DE', rate: 16, name: 'VAT' }, TAX_MESSAGES.taken],
      [{ country: 'Narnia', rate: 5, name: 'VAT' }, TAX_MESSAGES.country],
      [{ country: 'AT', rate: 150, name: 'VAT' }, TAX_MESSAGES.rate],
      [{ country: 'AT', rate: 7.777, name: 'VAT' }, TAX_MESSAGES.rate],
      [{ country: 'AT', rate: 20, name: '' }, TAX_MESSAGES.name],
      [{ country: 'AT', rate: 20, name: 'VAT', category: 'Socks' }, TAX_MESSAGES.category],
    ] as const) {
      const refused = await api('POST', '/api/admin/tax-rates', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.message).toBe(message);
    }
    const austria = await api('POST', '/api/admin/tax-rates', { country: 'AT', rate: 20, name: 'USt' });
    expect(
      (await api('GET', '/api/admin/tax-rates')).body.taxRates.map((r: { country: string }) => r.country),
    ).toEqual(['AT', 'DE', 'DE']);
    expect((await api('DELETE', `/api/admin/tax-rates/${austria.body.id}`)).status).toBe(204);
    expect((await api('DELETE', `/api/admin/tax-rates/${austria.body.id}`)).status).toBe(404);
    expect((await api('GET', '/api/admin/tax-rates')).body.taxRates).toHaveLength(2);

    // Settings → Tax: the same schema's words from the form, and its rates listed by country name.
    const form = (fields: Record<string, string>) =>
      fetch(`${stack.app.url}/admin?tab=settings`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      }).then((r) => r.text());
    expect(
      await form({ intent: 'add-tax-rate', country: 'CH', rate: '8,1', name: 'MWST', category: '' }),
    ).toContain(TAX_MESSAGES.rate);
    expect(
      await form({ intent: 'add-tax-rate', country: 'CH', rate: '8.1', name: 'MWST', category: '' }),
    ).toContain(TAX_MESSAGES.added);
    const swiss = await stack.app.services.db('tax_rates').where({ country: 'CH' }).first();
    expect(swiss).toMatchObject({ rate_hundredths: 810, name: 'MWST', category: null });
    expect(await form({ intent: 'delete-tax-rate', id: String(swiss.id) })).toContain(TAX_MESSAGES.deleted);
    const page = (await form({ intent: 'delete-tax-rate', id: String(swiss.id) })).replaceAll('<!-- -->', '');
    expect(page).toContain(TAX_MESSAGES.notFound);
    expect(page).toContain('Germany: VAT 7% (Books)');
  });

  it('are charged per line on the order, carried to Stripe, checked in the webhook and given back by refunds', async () => {
    const { db } = stack.app.services;
    const mug = await createProductRow(db, {
      name: 'Mug',
      category: 'Merchandise',
      price: 2500,
      stock: null,
    });
    const book = await createProductRow(db, { name: 'Book', category: 'Books', price: 1500, stock: null });
    const guest = new GuestClient(stack.app);
    await guest.add(mug.id, 2);
    await guest.add(book.id);
    const placed = await guest.checkout(germany);
    expect(placed.status).toBe(201);
    const id = placed.body.id;
    // 19% of 50.00 and 7% of 15.00, each line rounded half up: 9.50 + 1.05.
    const { order, items } = (await api('GET', `/api/admin/orders/${id}`)).body;
    expect(order).toMatchObject({ subtotal: 6500, tax: 1055, discount: 0, taxIncluded: false });
    expect(order.total).toBe(6500 + order.shipping + 1055);
    expect(placed.body.totalAmount).toBe(order.total);
    expect(items.map((i: { taxAmount: number }) => i.taxAmount)).toEqual([950, 105]);
    const [event] = await db('order_events').where({ order_id: id, type: 'OrderPlaced' });
    expect(event.data.items.map((i: { tax: unknown }) => i.tax)).toEqual([
      { rate: 19, name: 'VAT', amount: 950 },
      { rate: 7, name: 'VAT', amount: 105 },
    ]);
    expect(event.data.taxAmount).toBe(1055);

    // Stripe is asked for the total with the tax as a line of its own.
    const session = stack.stripe.sessions.get(placed.body.paymentUrl.split('/pay/')[1]);
    expect(session?.line_items_sent).toContainEqual({
      name: 'Tax: VAT 19%, VAT 7%',
      unit_amount: 1055,
      quantity: 1,
    });
    expect(session?.amount_total).toBe(order.total);
    // A payment of the amount without its tax is not the order's: kept for review, not paid.
    const paid = stack.stripe.complete(session?.id ?? '');
    expect(
      await deliver(
        stack.stripe.event('checkout.session.completed', { ...paid, amount_total: order.total - 1055 }),
      ),
    ).toBe(200);
    expect((await db('orders').where({ id }).first('payment_status')).payment_status).toBe('unpaid');
    expect(await deliver(stack.stripe.event('checkout.session.completed', paid))).toBe(200);
    expect(await db('orders').where({ id }).first('payment_status', 'paid_amount')).toEqual({
      payment_status: 'paid',
      paid_amount: order.total,
    });
    const receipt = await stack.smtp.waitFor((m) => m.subject === `Payment received for order #${id}`);
    expect(receipt.text).toContain('(of which tax $10.55)');

    // A refund of a third gives back a third of the tax (half up); the last one the rest.
    const third = Math.floor(order.total / 3);
    expect((await api('POST', `/api/admin/orders/${id}?action=refund`, { amount: third })).status).toBe(200);
    const share = Math.floor((2 * third * 1055 + order.total) / (2 * order.total));
    expect((await db('orders').where({ id }).first('refunded_tax')).refunded_tax).toBe(share);
    const mail = await stack.smtp.waitFor((m) => m.subject === `Refund issued for order #${id}`);
    expect(mail.text).toContain(`(of which tax $${(share / 100).toFixed(2)})`);
    expect(
      (await api('POST', `/api/admin/orders/${id}?action=refund`, { amount: order.total - third })).status,
    ).toBe(200);
    const refunds = await db('order_events').where({ order_id: id, type: 'RefundIssued' }).orderBy('version');
    expect(refunds.map((e) => e.data.tax)).toEqual([share, 1055 - share]);
    expect((await db('orders').where({ id }).first('refunded_tax')).refunded_tax).toBe(1055);
    const after = (await api('GET', `/api/admin/orders/${id}`)).body.order;
    expect(after.refundedTax).toBe(1055);

    // The projections rebuild from the events to the same rows, tax included: once the worker has
    // recorded every mail of the order (each record is an event that moves the order's version).
    await until(async () => {
      const kinds = await recordedMailKinds(db, id);
      return (
        kinds.filter((kind) => kind === 'refund-issued').length === 2 &&
        kinds.includes('payment-received') &&
        kinds.includes('ConfirmationEmailSent')
      );
    }, "the order's mails recorded");
    const before = [await db('orders').orderBy('id'), await db('order_items').orderBy('id')];
    await rebuildProjections(db);
    expect([await db('orders').orderBy('id'), await db('order_items').orderBy('id')]).toEqual(before);
  });

  it('is a part of the prices when they are entered with tax, and the pages say so', async () => {
    const { db } = stack.app.services;
    const saved = await fetch(`${stack.app.url}/admin?tab=settings`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'save-tax', pricesIncludeTax: 'on' }),
    });
    expect(await saved.text()).toContain(TAX_MESSAGES.saved);
    const shirt = await createProductRow(db, {
      name: 'Shirt',
      category: 'Merchandise',
      price: 1190,
      stock: null,
    });
    const guest = new GuestClient(stack.app);
    await guest.add(shirt.id);
    const placed = await guest.checkout(germany);
    const { order, items } = (await api('GET', `/api/admin/orders/${placed.body.id}`)).body;
    // 11.90 with 19% in it: 1.90 of tax, and the total is not raised by it.
    expect(order).toMatchObject({ subtotal: 1190, tax: 190, taxIncluded: true });
    expect(order.total).toBe(1190 + order.shipping);
    expect(items[0].taxAmount).toBe(190);
    const page = (await fetch(placed.body.orderUrl).then((r) => r.text())).replaceAll('<!-- -->', '');
    expect(page).toMatch(/Total[\s\S]*Including tax[\s\S]*\$1\.90/);
    await fetch(`${stack.app.url}/admin?tab=settings`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'save-tax' }),
    });
    expect((await db('blog_settings').where({ id: 1 }).first('prices_include_tax')).prices_include_tax).toBe(
      false,
    );
  });
});
