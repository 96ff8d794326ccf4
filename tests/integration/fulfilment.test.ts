import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLink } from '../../src/orders/access-key.ts';
import { rebuildProjections } from '../../src/orders/store.ts';
import { CARRIER_MESSAGES } from '../../src/shop/carriers.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { untilOrderMailsRecorded } from '../support/order-mails.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { startSmtpServer } from '../support/smtp.ts';

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let admin: Record<string, string>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ withWorker: true, env: { SMTP_URL: smtp.url } });
  admin = { ...(await signedInSession(app, { role: 'admin' })).headers, 'content-type': 'application/json' };
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

async function adminOrder(id: number, action: string, body: unknown = {}) {
  const res = await fetch(`${app.url}/api/admin/orders/${id}?action=${action}`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function paidOrder(fields: { digital?: boolean; email: string }) {
  const product = await createProductRow(app.services.db, { price: 2000, stock: null });
  if (fields.digital)
    await app.services.db('product_files').insert({
      product_id: product.id,
      name: 'Book',
      file_name: 'book.pdf',
      storage_name: `${product.id}`.padStart(32, 'a'),
      content_type: 'application/pdf',
      size_bytes: 1,
    });
  const guest = new GuestClient(app);
  await guest.add(product.id);
  const placed = await guest.checkout({ ...validCheckout, customerEmail: fields.email });
  expect(placed.status).toBe(201);
  expect((await adminOrder(placed.body.id, 'mark-paid')).status).toBe(200);
  return placed.body.id as number;
}

describe('fulfilment', () => {
  it('ships with a carrier and tracking number, mails the tracking link once, then delivers', async () => {
    const id = await paidOrder({ email: 'mug@example.com' });
    expect((await adminOrder(id, 'ship', { carrier: 'Owl Post', trackingNumber: 'X1' })).body.message).toBe(
      CARRIER_MESSAGES.unknown(['DHL', 'FedEx', 'UPS', 'USPS']),
    );
    expect((await adminOrder(id, 'ship', { carrier: 'UPS', trackingNumber: '  ' })).body.message).toBe(
      'A tracking number is required to ship an order.',
    );
    const shipped = await adminOrder(id, 'ship', { carrier: 'ups', trackingNumber: '1Z 999/AA' });
    expect(shipped.status).toBe(200);
    const url = 'https://www.ups.com/track?tracknum=1Z%20999%2FAA';
    expect(shipped.body.order).toMatchObject({
      status: 'shipped',
      trackingNumber: '1Z 999/AA',
      carrier: 'UPS',
      trackingUrl: url,
    });
    // Found by type: the worker may record the payment mail's event just after it.
    expect(shipped.body.events.find((e: { type: string }) => e.type === 'OrderShipped')).toMatchObject({
      type: 'OrderShipped',
      data: { carrier: 'UPS', trackingNumber: '1Z 999/AA', trackingUrl: url },
    });
    expect((await adminOrder(id, 'ship', { carrier: 'UPS', trackingNumber: '2' })).status).toBe(409);

    const subject = `Your order has shipped (order #${id})`;
    const mail = await smtp.waitFor((m) => m.subject === subject);
    expect(mail.to).toEqual(['mug@example.com']);
    expect(mail.text).toContain(url);
    expect(mail.text).toContain('with UPS');

    const delivered = await adminOrder(id, 'deliver');
    expect(delivered.body.order.status).toBe('delivered');
    expect((await adminOrder(id, 'deliver')).body.message).toBe(
      'Only a shipped order can be marked delivered.',
    );

    // The customer's order page links the tracking page.
    const page = await (await fetch(await orderLink(app.services.db, app.url, id))).text();
    expect(page).toContain(`href="${url.replaceAll('&', '&amp;')}"`);

    // Once: the mail's record is an event, and the rebuild projects the same rows.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.messages.filter((m) => m.subject === subject)).toHaveLength(1);
    // Compared once the worker has recorded every order's mails (the confirmations, the payment's
    // and the shipping's): each record is an event that moves its order's version.
    await untilOrderMailsRecorded(app.services.db);
    const before = await app.services.db('orders').orderBy('id');
    await rebuildProjections(app.services.db);
    expect(await app.services.db('orders').orderBy('id')).toEqual(before);
  });

  it('completes a digital-only order when it is paid: nothing to ship', async () => {
    const product = await createProductRow(app.services.db, { price: 900, stock: null });
    await app.services.db('product_files').insert({
      product_id: product.id,
      name: 'Book',
      file_name: 'book.pdf',
      storage_name: 'd'.repeat(32),
      content_type: 'application/pdf',
      size_bytes: 1,
    });
    const guest = new GuestClient(app);
    await guest.add(product.id);
    const placed = await guest.checkout({ customerName: 'Ada Lovelace', customerEmail: 'ebook@example.com' });
    expect(placed.body.status).toBe('pending');
    const paid = await adminOrder(placed.body.id, 'mark-paid');
    expect(paid.body.order).toMatchObject({
      status: 'delivered',
      paymentStatus: 'paid',
      shippingMethod: 'none',
    });
    expect((await adminOrder(placed.body.id, 'ship', { carrier: 'UPS', trackingNumber: '1' })).status).toBe(
      409,
    );
  });

  it('keeps carriers in the settings, with their tracking URL checked', async () => {
    const form = async (fields: Record<string, string>) =>
      (
        await fetch(`${app.url}/admin?tab=settings`, {
          method: 'POST',
          headers: {
            cookie: admin.cookie,
            origin: app.url,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams(fields),
        })
      ).text();
    expect(
      await form({ intent: 'save-carrier', name: 'Royal Mail', trackingUrl: 'https://rm.example/track' }),
    ).toContain(CARRIER_MESSAGES.trackingUrl);
    expect(
      await form({
        intent: 'save-carrier',
        name: 'Royal Mail',
        trackingUrl: 'https://rm.example/track/{tracking}',
      }),
    ).toContain(CARRIER_MESSAGES.saved);
    expect(
      await form({ intent: 'save-carrier', name: 'ups', trackingUrl: 'https://x.example/{tracking}' }),
    ).toContain(CARRIER_MESSAGES.saved);
    const id = await paidOrder({ email: 'royal@example.com' });
    const shipped = await adminOrder(id, 'ship', { carrier: 'royal mail', trackingNumber: 'RM1' });
    expect(shipped.body.order.trackingUrl).toBe('https://rm.example/track/RM1');
    const carrier = await app.services.db('carriers').where({ name: 'Royal Mail' }).first('id');
    expect(await form({ intent: 'delete-carrier', id: String(carrier.id) })).toContain(
      CARRIER_MESSAGES.deleted,
    );
  });
});
