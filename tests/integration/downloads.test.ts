import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOAD_MESSAGES, DOWNLOAD_SETTINGS_MESSAGES } from '../../src/orders/downloads.ts';
import { rebuildProjections } from '../../src/orders/store.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { recordedMailKinds } from '../support/order-mails.ts';
import { type S3Server, startS3Server } from '../support/s3.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { until } from '../support/until.ts';

let s3: S3Server;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  [s3, smtp] = await Promise.all([startS3Server(), startSmtpServer()]);
});
afterAll(async () => {
  await s3?.close();
  await smtp?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

type Grant = {
  id: number;
  url: string;
  name: string;
  fileName: string;
  downloads: number;
  limit: number;
  expiresAt: string;
  revoked: boolean;
};

/** Starts a download and drops the connection after the first chunk: an interrupted download. */
function interruptedDownload(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      expect(res.statusCode).toBe(200);
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error) => (req.destroyed ? resolve() : reject(error)));
  });
}

describe.each(['local', 's3'] as const)('download links with %s storage', (storage) => {
  let app: TestApp;
  let admin: Record<string, string>;
  const bucket = 'penstand-downloads-test';

  beforeAll(async () => {
    const env = storage === 's3' ? await s3.createBucket(bucket) : {};
    app = await startTestApp({ env: { ...env, SMTP_URL: smtp.url }, withWorker: true });
    admin = (await signedInSession(app, { role: 'admin' })).headers;
  });
  afterAll(async () => {
    await app?.close();
  });

  async function adminOrder(id: number, action?: string, body: unknown = {}) {
    const res = await fetch(`${app.url}/api/admin/orders/${id}${action ? `?action=${action}` : ''}`, {
      method: action ? 'POST' : 'GET',
      headers: { ...admin, ...(action ? { 'content-type': 'application/json' } : {}) },
      body: action ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as { downloads: Grant[]; message?: string } };
  }

  async function digitalProduct(bytes: Buffer, price = 1500) {
    const product = await createProductRow(app.services.db, { category: 'Books', price, stock: null });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'the-book.pdf');
    form.append('name', 'The Book (PDF)');
    const res = await fetch(`${app.url}/api/admin/products/${product.id}/files`, {
      method: 'POST',
      body: form,
      headers: admin,
    });
    expect(res.status).toBe(201);
    return product;
  }

  it('grants a link when paid: byte for byte, resumable, counted per completed response, 410 past the limit, mailed once', {
    timeout: 60_000,
  }, async () => {
    const bytes = randomBytes(2 * 1024 * 1024);
    const product = await digitalProduct(bytes);
    const guest = new GuestClient(app);
    await guest.add(product.id);
    const email = `reader-${storage}@example.com`;
    const placed = await guest.checkout({ customerName: 'Ada Lovelace', customerEmail: email });
    expect(placed.status).toBe(201);
    const orderId = placed.body.id as number;
    // Unpaid: nothing to download yet.
    expect((await adminOrder(orderId)).body.downloads).toEqual([]);

    const paid = await adminOrder(orderId, 'mark-paid');
    expect(paid.status).toBe(200);
    const [grant] = paid.body.downloads;
    expect(paid.body.downloads).toHaveLength(1);
    expect(grant).toMatchObject({
      name: 'The Book (PDF)',
      fileName: 'the-book.pdf',
      downloads: 0,
      limit: 5,
      revoked: false,
    });
    const days = (Date.parse(grant.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect(grant.url).toMatch(new RegExp(`^${app.url}/downloads/\\d+\\.[A-Za-z0-9_-]{32}$`));

    // Both storages' apps mail the same server, each from order #1: the address tells them apart.
    const ours = (m: { subject: string; to: string[] }) =>
      m.subject === `Your downloads for order #${orderId}` && m.to.includes(email);
    const mail = await smtp.waitFor(ours);
    expect(mail.text).toContain(grant.url);
    expect(mail.text).toContain('5 of 5 downloads left');

    // 1: whole file, byte for byte, with its name.
    const first = await fetch(grant.url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-disposition')).toBe('attachment; filename="the-book.pdf"');
    expect(first.headers.get('content-type')).toBe('application/pdf');
    expect(first.headers.get('accept-ranges')).toBe('bytes');
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    expect(sha256(new Uint8Array(await first.arrayBuffer()))).toBe(sha256(bytes));
    await expect.poll(async () => (await adminOrder(orderId)).body.downloads[0].downloads).toBe(1);

    // An interrupted download counts nothing.
    await interruptedDownload(grant.url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await adminOrder(orderId)).body.downloads[0].downloads).toBe(1);

    // 2: the resume of an interrupted download, from byte 1 MiB on.
    const from = 1024 * 1024;
    const rest = await fetch(grant.url, { headers: { range: `bytes=${from}-` } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes ${from}-${bytes.length - 1}/${bytes.length}`);
    const tail = new Uint8Array(await rest.arrayBuffer());
    expect(sha256(tail)).toBe(sha256(bytes.subarray(from)));
    const unsatisfiable = await fetch(grant.url, { headers: { range: `bytes=${bytes.length}-` } });
    expect(unsatisfiable.status).toBe(416);
    await unsatisfiable.arrayBuffer();

    // 3 to 5, then the 6th: 410.
    for (let n = 3; n <= 5; n++) {
      const res = await fetch(grant.url);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      await expect.poll(async () => (await adminOrder(orderId)).body.downloads[0].downloads).toBe(n);
    }
    const sixth = await fetch(grant.url);
    expect(sixth.status).toBe(410);
    expect(await sixth.text()).toContain(DOWNLOAD_MESSAGES.limitReached);

    // The admin resets the limit and re-sends the mail.
    const reset = await adminOrder(orderId, 'reset-download', { grantId: grant.id });
    expect(reset.body.downloads[0].downloads).toBe(0);
    const again = await fetch(grant.url);
    expect(again.status).toBe(200);
    await again.arrayBuffer();
    expect((await adminOrder(orderId, 'resend-downloads')).status).toBe(200);
    await expect.poll(() => smtp.messages.filter(ours).length).toBe(2);
    expect((await adminOrder(orderId, 'reset-download', { grantId: 999999 })).status).toBe(404);
    expect((await adminOrder(orderId, 'reset-download', { grantId: 'x' })).status).toBe(400);

    // The customer's order page lists it; wrong tokens are 404.
    const page = await (await fetch(placed.body.orderUrl)).text();
    expect(page).toContain('Your downloads');
    expect(page).toContain(new URL(grant.url).pathname);
    const [id, token] = new URL(grant.url).pathname.slice('/downloads/'.length).split('.');
    for (const wrong of [
      `${id}.${'A'.repeat(32)}`,
      `${Number(id) + 1}.${token}`,
      token,
      `${id}.${token}x`,
      '..%2F..%2Fpackage.json',
    ]) {
      const res = await fetch(`${app.url}/downloads/${wrong}`);
      expect(res.status, wrong).toBe(404);
      await res.arrayBuffer();
    }

    // Nobody else reads the order's links: another visitor, a signed-in user, a wrong look-up.
    const stranger = new GuestClient(app);
    await stranger.add(product.id);
    const otherPage = await fetch(`${app.url}/orders/${orderId}`, {
      headers: { 'x-session-id': stranger.sid ?? '' },
    });
    expect(otherPage.status).toBe(404);
    expect(await otherPage.text()).not.toContain('/downloads/');
    const user = await signedInSession(app, { role: 'user' });
    const asUser = await fetch(`${app.url}/api/admin/orders/${orderId}`, { headers: user.headers });
    expect(asUser.status).toBe(403);
    expect(await asUser.text()).not.toContain('/downloads/');
    const wrongLookup = await fetch(`${app.url}/orders/lookup`, {
      method: 'POST',
      headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ orderId: String(orderId), email: 'someone-else@example.com' }),
    });
    expect(await wrongLookup.text()).not.toContain('/downloads/');

    // The events still rebuild the same order rows (grants are not a projection), compared once the
    // worker has recorded every mail of the order (each record is an event that moves its version):
    // the confirmation, the payment's, the downloads and their re-send.
    await until(async () => {
      const kinds = await recordedMailKinds(app.services.db, orderId);
      return (
        kinds.includes('ConfirmationEmailSent') &&
        kinds.includes('payment-received') &&
        kinds.filter((kind) => kind === 'downloads').length === 2
      );
    }, "the order's mails recorded");
    const before = await app.services.db('orders').where({ id: orderId }).first();
    await rebuildProjections(app.services.db);
    expect(await app.services.db('orders').where({ id: orderId }).first()).toEqual(before);
    expect((await adminOrder(orderId)).body.downloads).toHaveLength(1);

    // Only one 'Your downloads' mail per key: the first and the re-send.
    expect(smtp.messages.filter(ours)).toHaveLength(2);
  });

  it('grants a free order at once with the settings, expires links past their days, and a refund revokes them', async () => {
    const saveSettings = async (days: string, limit: string) => {
      const res = await fetch(`${app.url}/admin?tab=settings`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'save-downloads', downloadDays: days, downloadLimit: limit }),
      });
      return res.text();
    };
    expect(await saveSettings('0', '5')).toContain(DOWNLOAD_SETTINGS_MESSAGES.days);
    expect(await saveSettings('30', 'many')).toContain(DOWNLOAD_SETTINGS_MESSAGES.limit);
    expect(await saveSettings('7', '2')).toContain(DOWNLOAD_SETTINGS_MESSAGES.saved);
    const bytes = randomBytes(64 * 1024);
    const free = await digitalProduct(bytes, 0);
    const guest = new GuestClient(app);
    await guest.add(free.id);
    const freeEmail = `free-${storage}@example.com`;
    const placed = await guest.checkout({ customerName: 'Ada Lovelace', customerEmail: freeEmail });
    expect(placed.status).toBe(201);
    const [grant] = (await adminOrder(placed.body.id)).body.downloads;
    expect(grant).toMatchObject({ downloads: 0, limit: 2 });
    const days = (Date.parse(grant.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // The order look-up shows the link.
    const lookup = await fetch(`${app.url}/orders/lookup`, {
      method: 'POST',
      headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ orderId: String(placed.body.id), email: freeEmail }),
    });
    const lookupPage = await lookup.text();
    expect(lookupPage).toContain('Your downloads');
    expect(lookupPage).toContain(new URL(grant.url).pathname);
    expect(lookupPage).toContain('2 of 2 downloads left');
    await smtp.waitFor(
      (m) => m.subject === `Your downloads for order #${placed.body.id}` && m.to.includes(freeEmail),
    );

    await app.services
      .db('download_grants')
      .where({ id: grant.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await fetch(grant.url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain(DOWNLOAD_MESSAGES.expired);

    // A paid mixed order: the refund in full revokes its links.
    const paidProduct = await digitalProduct(bytes, 900);
    const buyer = new GuestClient(app);
    await buyer.add(paidProduct.id);
    const order = await buyer.checkout({ ...validCheckout, customerEmail: 'refund@example.com' });
    await adminOrder(order.body.id, 'mark-paid');
    const [paidGrant] = (await adminOrder(order.body.id)).body.downloads;
    expect((await fetch(paidGrant.url)).status).toBe(200);
    const refunded = await adminOrder(order.body.id, 'refund', { amount: 900 });
    expect(refunded.status).toBe(200);
    expect(refunded.body.downloads[0].revoked).toBe(true);
    const revoked = await fetch(paidGrant.url);
    expect(revoked.status).toBe(410);
    expect(await revoked.text()).toContain(DOWNLOAD_MESSAGES.revoked);
    expect((await adminOrder(order.body.id, 'resend-downloads')).status).toBe(409);
  });
});
