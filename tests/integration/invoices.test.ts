import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../../src/orders/store.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { pdfText } from '../support/pdf.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { startSmtpServer, type TestSmtp } from '../support/smtp.ts';

// Manual payment mode: the admin's 'Mark as paid' is the payment, as a bank transfer's.
let app: TestApp;
let smtp: TestSmtp;
let admin: Record<string, string>;
const year = new Date().getUTCFullYear();
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ env: { SMTP_URL: smtp.url, CHECKOUT_RATE_LIMIT: '1000' }, withWorker: true });
  admin = { ...(await signedInSession(app, { role: 'admin' })).headers, 'content-type': 'application/json' };
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

async function placed(productId: number, checkout: Record<string, string> = validCheckout) {
  const guest = new GuestClient(app);
  await guest.add(productId);
  const res = await guest.checkout(checkout);
  expect(res.status).toBe(201);
  return { order: res.body, guest };
}

describe('invoices', () => {
  it('numbers 20 orders paid at once without gaps or duplicates', async () => {
    const product = await createProductRow(app.services.db, { price: 1000, stock: null });
    const orders = [];
    for (let i = 0; i < 20; i++) orders.push((await placed(product.id)).order);
    const paid = await Promise.all(
      orders.map((o) =>
        adminCall('POST', `/api/admin/orders/${o.id}?action=mark-paid`, { reference: 'bank' }),
      ),
    );
    expect(paid.map((p) => p.status)).toEqual(orders.map(() => 200));
    const numbers = await Promise.all(
      orders.map(async (o) => (await adminCall('GET', `/api/admin/orders/${o.id}`)).body.order.invoiceNumber),
    );
    expect(numbers.sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `${year}-${String(i + 1).padStart(4, '0')}`),
    );
    // The number is in the payment event: a rebuild gives every order the same one.
    const before = await app.services.db('orders').orderBy('id').select('id', 'invoice_number');
    await rebuildProjections(app.services.db);
    expect(await app.services.db('orders').orderBy('id').select('id', 'invoice_number')).toEqual(before);
  });

  it('is a PDF with the seller, the buyer, the lines with their tax and the total, for the admin and the customer only', async () => {
    const { db } = app.services;
    const saved = await fetch(`${app.url}/admin?tab=settings`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        intent: 'save-seller',
        sellerName: 'Penstand Press GmbH',
        sellerAddress: 'Torstraße 1\n10119 Berlin',
        sellerTaxId: 'DE123456789',
      }),
    });
    expect(await saved.text()).toContain('Seller details saved');
    expect(
      (await adminCall('POST', '/api/admin/tax-rates', { country: 'DE', rate: 19, name: 'VAT' })).status,
    ).toBe(201);
    const lamp = await createProductRow(db, {
      name: 'Desk Lamp',
      category: 'Merchandise',
      price: 4000,
      stock: null,
    });
    const { order } = await placed(lamp.id, {
      ...validCheckout,
      country: 'DE',
      zipCode: '10115',
      city: 'Berlin',
    });
    // Not paid yet: no invoice.
    expect(
      (await fetch(`${app.url}/api/admin/orders/${order.id}/invoice.pdf`, { headers: admin })).status,
    ).toBe(404);
    expect((await adminCall('POST', `/api/admin/orders/${order.id}?action=mark-paid`, {})).status).toBe(200);
    const { invoiceNumber, total, tax } = (await adminCall('GET', `/api/admin/orders/${order.id}`)).body
      .order;
    expect(invoiceNumber).toMatch(new RegExp(`^${year}-\\d{4}$`));
    expect(tax).toBe(760);

    const res = await fetch(`${app.url}/api/admin/orders/${order.id}/invoice.pdf`, { headers: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="invoice-${invoiceNumber}.pdf"`);
    const text = await pdfText(await res.arrayBuffer());
    for (const expected of [
      `Invoice ${invoiceNumber}`,
      'Penstand Press GmbH',
      'Tax ID: DE123456789',
      'Ada Lovelace',
      'Germany',
      '1 x Desk Lamp at $40.00 (VAT 19%: $7.60)',
      'Tax (VAT 19%)',
      `$${(total / 100).toFixed(2)}`,
    ])
      expect(text).toContain(expected);

    // The customer's order page links it; the link works with the order's key, and for nobody else.
    const page = await fetch(order.orderUrl).then((r) => r.text());
    const key = new URL(order.orderUrl).searchParams.get('key');
    expect(page).toContain(`href="/orders/${order.id}/invoice.pdf?key=${key}"`);
    const mine = await fetch(`${app.url}/orders/${order.id}/invoice.pdf?key=${key}`);
    expect(mine.status).toBe(200);
    expect(await pdfText(await mine.arrayBuffer())).toContain(`Invoice ${invoiceNumber}`);
    expect((await fetch(`${app.url}/orders/${order.id}/invoice.pdf?key=${'A'.repeat(32)}`)).status).toBe(404);
    const stranger = (await signedInSession(app)).headers;
    expect((await fetch(`${app.url}/orders/${order.id}/invoice.pdf`, { headers: stranger })).status).toBe(
      404,
    );

    // The payment mail carries it.
    const mail = await smtp.waitFor((m) => m.subject === `Payment received for order #${order.id}`);
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [`invoice-${invoiceNumber}.pdf`, 'application/pdf'],
    ]);
    expect(await pdfText(mail.attachments[0].content)).toContain(`Invoice ${invoiceNumber}`);

    // A refund issues a credit note of its own series, with its share of the tax.
    expect(
      (await adminCall('POST', `/api/admin/orders/${order.id}?action=refund`, { amount: 2380 })).status,
    ).toBe(200);
    const note = `CN-${year}-0001`;
    const credit = await fetch(`${app.url}/api/admin/orders/${order.id}/credit-notes/${note}.pdf`, {
      headers: admin,
    });
    expect(credit.status).toBe(200);
    const creditText = await pdfText(await credit.arrayBuffer());
    for (const expected of [
      `Credit note ${note}`,
      `invoice ${invoiceNumber}`,
      'Total refunded',
      '$23.80',
      '$3.80',
    ])
      expect(creditText).toContain(expected);
    expect(
      (
        await fetch(`${app.url}/api/admin/orders/${order.id}/credit-notes/CN-${year}-0999.pdf`, {
          headers: admin,
        })
      ).status,
    ).toBe(404);
    const after = await fetch(order.orderUrl).then((r) => r.text());
    expect(after).toContain(`href="/orders/${order.id}/credit-notes/${note}.pdf?key=${key}"`);
    expect((await fetch(`${app.url}/orders/${order.id}/credit-notes/${note}.pdf?key=${key}`)).status).toBe(
      200,
    );
  });

  it("is linked from the buyer's /account and served to that account without the key", async () => {
    const buyer = await signedInSession(app);
    const mug = await createProductRow(app.services.db, { name: 'Mug', price: 1200, stock: null });
    const call = (path: string, body?: unknown) =>
      fetch(`${app.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...buyer.headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await call('/api/cart?action=add', { productId: mug.id, quantity: 1 })).status).toBe(201);
    const order = await (await call('/api/orders', validCheckout)).json();
    expect((await adminCall('POST', `/api/admin/orders/${order.id}?action=mark-paid`, {})).status).toBe(200);
    const { invoiceNumber } = (await adminCall('GET', `/api/admin/orders/${order.id}`)).body.order;
    const account = (await (await call('/account')).text()).replaceAll('<!-- -->', '');
    expect(account).toMatch(
      new RegExp(`href="/orders/${order.id}/invoice\\.pdf\\?key=[^"]+">Invoice ${invoiceNumber} \\(PDF\\)`),
    );
    const own = await call(`/orders/${order.id}/invoice.pdf`);
    expect(own.status).toBe(200);
    expect(await pdfText(await own.arrayBuffer())).toContain(`Invoice ${invoiceNumber}`);
  });
});
