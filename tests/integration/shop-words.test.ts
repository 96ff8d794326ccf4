import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAIL_NOT_SET_UP } from '../../src/app/admin/DashboardTab.tsx';
import { updatePaymentSettings } from '../../src/orders/payment-settings.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductFileRow, createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { startSmtpServer, type TestSmtp } from '../support/smtp.ts';

// What buyers read (pages and mails) in manual payment mode, as `npm start` runs.
let app: TestApp;
let smtp: TestSmtp;
let admin: Record<string, string>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ env: { SMTP_URL: smtp.url }, withWorker: true });
  admin = { ...(await signedInSession(app, { role: 'admin' })).headers, 'content-type': 'application/json' };
  await updatePaymentSettings(app.services.db, {
    paymentInstructions: 'Bank transfer to IBAN GB00 PENS 0000 0000 00',
    paymentHoldMinutes: 4320,
  });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const html = async (response: Response) => (await response.text()).replaceAll('<!-- -->', '');

async function order(opts: { digital?: boolean; email: string }) {
  const product = await createProductRow(app.services.db, { price: 2500, stock: 5 });
  if (opts.digital) await createProductFileRow(app.services.db, product.id);
  const guest = new GuestClient(app);
  await guest.add(product.id, 2);
  const details = opts.digital
    ? { customerName: validCheckout.customerName, customerEmail: opts.email }
    : { ...validCheckout, customerEmail: opts.email };
  const placed = await guest.checkout(details);
  expect(placed.status).toBe(201);
  return placed.body as { id: number; orderUrl: string };
}

const adminPost = (path: string, body: unknown = {}) =>
  fetch(`${app.url}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });

it('mails the greeting before how to pay, and shows the reservation time as a date and time', async () => {
  const placed = await order({ email: 'greeted@example.com' });
  const mail = await smtp.waitFor((m) => m.subject === `Order #${placed.id} confirmed`);
  expect(mail.text.startsWith('Hello Ada Lovelace,')).toBe(true);
  expect(mail.text.indexOf('How to pay:')).toBeGreaterThan(mail.text.indexOf('Total: $50.00'));
  expect(mail.html?.indexOf('How to pay')).toBeGreaterThan(mail.html?.indexOf('Hello') ?? 0);

  const page = await html(await fetch(placed.orderUrl));
  expect(page).toMatch(
    /reserved until <time dateTime="[^"]+">[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC<\/time>/,
  );
  expect(page).not.toContain('GMT');
});

it("tells a digital-only order's buyer where the downloads come, not that it ships", async () => {
  const digital = await order({ digital: true, email: 'reader@example.com' });
  expect((await adminPost(`/api/admin/orders/${digital.id}?action=mark-paid`)).status).toBe(200);
  const paid = await smtp.waitFor((m) => m.subject === `Payment received for order #${digital.id}`);
  expect(paid.text).not.toContain('ships');
  expect(paid.text).toContain('Your download links come in a separate mail.');

  const shipped = await order({ email: 'shipped@example.com' });
  expect((await adminPost(`/api/admin/orders/${shipped.id}?action=mark-paid`)).status).toBe(200);
  const physical = await smtp.waitFor((m) => m.subject === `Payment received for order #${shipped.id}`);
  expect(physical.text).toContain('We will let you know when it ships.');
});

it('refunds an amount typed in dollars, and looks the order up in words, with the amount refunded', async () => {
  const placed = await order({ email: 'refunded@example.com' });
  await adminPost(`/api/admin/orders/${placed.id}?action=mark-paid`);
  const refund = (amount: string) =>
    fetch(`${app.url}/admin/orders/${placed.id}`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'refund', amount }).toString(),
    });
  expect(await html(await refund('12.505'))).toContain('Enter a refund amount of at least 1 cent.');
  expect(await html(await refund('12.50'))).toContain('Refund issued');
  expect(await app.services.db('orders').where({ id: placed.id }).first('refunded_amount')).toEqual({
    refunded_amount: 1250,
  });
  const found = await html(
    await fetch(`${app.url}/orders/lookup`, {
      method: 'POST',
      headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ orderId: String(placed.id), email: 'refunded@example.com' }).toString(),
    }),
  );
  expect(found).toContain('Payment: Partially refunded ($12.50 refunded)');
  expect(found).not.toContain('Payment: partially_refunded');
});

it("says a name is too long, not that it is too short, and shows an empty cart's checkout without the form", async () => {
  const guest = new GuestClient(app);
  const product = await createProductRow(app.services.db);
  await guest.add(product.id);
  const refused = await guest.checkout({ ...validCheckout, customerName: 'A'.repeat(201) });
  expect(refused.status).toBe(400);
  expect(refused.body.errors.customerName).toBe('Name is too long (at most 200 characters)');

  const empty = await html(await fetch(`${app.url}/checkout`));
  expect(empty).toContain('<h2>Cart is Empty</h2>');
  expect(empty).not.toContain('Shipping Information');
  expect(empty).not.toContain('<form method="post"');
});

it('tells the admin on the dashboard, not the buyer, when mail is only logged; confirms an order once', async () => {
  const { cookie } = await signedInSession(app, { role: 'admin' });
  expect(await html(await fetch(`${app.url}/admin`, { headers: { cookie } }))).not.toContain(MAIL_NOT_SET_UP);
  const unmailed = await startTestApp();
  try {
    const owner = await signedInSession(unmailed, { role: 'admin' });
    const dashboard = await html(await fetch(`${unmailed.url}/admin`, { headers: { cookie: owner.cookie } }));
    expect(dashboard).toContain(MAIL_NOT_SET_UP);

    const buyer = new GuestClient(unmailed);
    await buyer.add((await createProductRow(unmailed.services.db, { price: 0 })).id);
    const confirmed = await html(
      await fetch(`${unmailed.url}/checkout`, {
        method: 'POST',
        headers: {
          origin: unmailed.url,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `sid=${buyer.sid}`,
        },
        body: new URLSearchParams(validCheckout).toString(),
      }),
    );
    // It leads with the order number and the next step; no raw 'Status pending'.
    expect(confirmed).toMatch(
      /<p class="confirmation-number">Order #\d+<\/p><h1>Order Confirmed!<\/h1><p class="confirmation-next">Paid\. A confirmation is on its way to /,
    );
    expect(confirmed).not.toContain('<dt>Status</dt>');
    expect(confirmed.match(/<h1[ >]/g)).toHaveLength(1);
    expect(confirmed).not.toMatch(/only logged|Order Placed Successfully|has been confirmed/);
  } finally {
    await unmailed.close();
  }
});
