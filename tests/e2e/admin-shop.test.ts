import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockOf } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ withWorker: true }), launchBrowser()]);
  admin = await signedInSession(app, { role: 'admin' });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function hydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated]');
}

describe('admin shop journeys', () => {
  it('creates a product with stock 3, a guest buys it, the admin ships it and sees the timeline', {
    timeout: 120_000,
  }, async () => {
    const adminContext = await newContext(browser, app.url);
    await addSessionCookie(adminContext, app.url, admin.sid);
    const page = await adminContext.newPage();
    const problems = await watchPage(page);
    page.on('dialog', (dialog) => dialog.accept());

    await hydrated(page, '/admin?tab=products');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'New Product' }).click();
    await page.waitForURL('**/admin/products/new');
    await page.getByLabel('Name', { exact: true }).fill('Brass Bookmark');
    await page.getByLabel('Description').fill('A heavy brass bookmark.');
    await page.getByLabel('Price (cents)').fill('1250');
    expect(await page.locator('output[for="price"]').textContent()).toBe('$12.50');
    await page.getByLabel('Category').selectOption('Physical');
    await page.getByLabel('Stock', { exact: true }).fill('3');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Create Product' }).click();
    await page.waitForURL('**/admin?tab=products&notice=product-created');
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toContain('Product created successfully');
    const product = await app.services.db('products').where({ name: 'Brass Bookmark' }).first();
    expect(product).toMatchObject({ price: 1250, category: 'Physical', status: 'active' });
    expect(await stockOf(app.services.db, product.id)).toBe(3);

    // A guest, in another browser context, buys one.
    const guest = await newContext(browser, app.url);
    const shopper = await guest.newPage();
    await hydrated(shopper, `/product/${product.id}`);
    await shopper.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await shopper.getByText('Item successfully added to your cart', { exact: true }).waitFor();
    await hydrated(shopper, '/checkout');
    await shopper.getByRole('heading', { name: 'Shipping Information' }).waitFor();
    const fields = {
      'Full name': 'Grace Hopper',
      Email: 'grace@example.com',
      Address: '1 Compiler Way',
      City: 'Arlington',
      'ZIP code': '22201',
    };
    await shopper.getByLabel('Country', { exact: true }).selectOption('US');
    for (const [label, value] of Object.entries(fields))
      await shopper.getByLabel(label, { exact: true }).fill(value);
    await shopper.getByRole('button', { name: 'Place Order' }).click();
    await shopper.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    await guest.close();
    const order = await app.services.db('orders').orderBy('id', 'desc').first();
    expect(await stockOf(app.services.db, product.id)).toBe(2);

    // The admin finds it by email and works through it.
    await hydrated(page, '/admin?tab=orders');
    await page.getByLabel('Search by email or order number').fill('grace@example.com');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: `Order #${order.id}` }).click();
    await page.waitForURL(`**/admin/orders/${order.id}`);
    await expectAccessible(page);

    // Only what the order's state allows is offered; the rest is listed with decide()'s reason.
    const actions = page.getByRole('region', { name: 'Actions' });
    expect(await actions.getByRole('button', { name: 'Ship Order' }).count()).toBe(0);
    expect(await actions.getByRole('button', { name: 'Mark Delivered' }).count()).toBe(0);
    expect(await actions.getByText('Record the payment before shipping the order.').count()).toBe(1);
    await page.getByLabel('Payment reference (optional)').fill('BT-2026-11');
    await page.getByRole('button', { name: 'Mark as paid' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Marked as paid');
    await expect.poll(() => actions.getByRole('button', { name: 'Mark as paid' }).count()).toBe(0);
    const payment = page.getByRole('region', { name: 'Payment' });
    expect(await payment.getByText('BT-2026-11', { exact: true }).count()).toBe(1);
    expect(await payment.getByText('Manual', { exact: true }).count()).toBe(1);
    await page.getByLabel('Tracking number').fill('1Z999AA10123456784');
    await page.getByRole('button', { name: 'Ship Order' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Order shipped');
    const timeline = page.getByRole('region', { name: 'History' }).locator('li');
    // The confirmation mail's event may arrive too: wait for the shipment itself, not a count.
    await expect
      .poll(async () => (await timeline.allTextContents()).some((e) => e.includes('Shipped')))
      .toBe(true);
    const entries = await timeline.allTextContents();
    expect(entries[0]).toContain('Order placed');
    expect(entries.some((e) => e.includes('Payment received') && e.includes('reference BT-2026-11'))).toBe(
      true,
    );
    expect(entries.some((e) => e.includes('Shipped') && /tracking number 1Z999AA10123456784/i.test(e))).toBe(
      true,
    );
    expect((await app.services.db('orders').where({ id: order.id }).first()).status).toBe('shipped');
    expect(await actions.getByRole('button', { name: 'Cancel Order' }).count()).toBe(0);
    expect(await actions.getByRole('button', { name: 'Mark Delivered' }).count()).toBe(1);

    // A partial refund (a damaged item), entered in dollars; the rest of the payment stays.
    await page.getByLabel('Refund amount (USD)').fill('1.50');
    await page.getByRole('button', { name: 'Refund' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Refund issued');
    expect(
      await app.services.db('orders').where({ id: order.id }).first('payment_status', 'refunded_amount'),
    ).toEqual({
      payment_status: 'partially_refunded',
      refunded_amount: 150,
    });
    // The Orders tab says where the payment stands and how it was made; its fulfilment filter
    // puts the shipped order under Shipped, not Unfulfilled, in a URL that can be linked.
    await hydrated(page, '/admin?tab=orders&q=grace%40example.com');
    await page.getByLabel('Fulfilment').selectOption('unfulfilled');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL('**/admin?*fulfilment=unfulfilled*');
    await page.getByText('No orders found').waitFor();
    await page.getByLabel('Fulfilment').selectOption('shipped');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL('**/admin?*fulfilment=shipped*');
    const listed = page.getByRole('listitem').filter({ hasText: `Order #${order.id}` });
    // The URL changes before the filtered list has loaded.
    await listed.waitFor();
    expect(await listed.getByText('Partially refunded', { exact: true }).count()).toBe(1);
    expect(await listed.getByText('Manual', { exact: true }).count()).toBe(1);

    // Delete the product from the list, behind its confirmation.
    await hydrated(page, '/admin?tab=products');
    await page.getByRole('button', { name: 'Delete Brass Bookmark' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Product deleted successfully');
    expect(problems).toEqual([]);
    // A missing order is named as such, never with the router's developer hint.
    for (const missing of ['/admin/orders/99999', '/admin/orders/abc']) {
      const res = await page.goto(missing);
      expect(res?.status(), missing).toBe(404);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Order not found');
      expect(await page.getByText('Did you forget').count()).toBe(0);
    }
    await adminContext.close();
  });
});
