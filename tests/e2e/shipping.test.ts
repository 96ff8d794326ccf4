import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { createProductRow } from '../support/shop.ts';

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  // A dozen orders from one address in a minute: above the default checkout limit's share.
  [app, browser] = await Promise.all([
    startTestApp({ env: { CHECKOUT_RATE_LIMIT: '100' } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('shipping at checkout', () => {
  it('offers the methods that deliver to the chosen country, totals with the chosen one, and the order keeps it', {
    timeout: 90_000,
  }, async () => {
    const db = app.services.db;
    await db('shipping_methods').where({ name: 'Standard' }).update({ price: 500, free_over: 10_000 });
    await db('shipping_methods')
      .where({ name: 'Express' })
      .update({ countries: ['IE'] });
    await db('shipping_methods').insert({ name: 'DHL Paket', price: 700, countries: ['DE'], position: 5 });
    await db('tax_rates').insert({ country: 'DE', rate_hundredths: 1900, name: 'VAT' });
    const ebook = await createProductRow(db, { name: 'Field Notes (e-book)', price: 1500, stock: null });
    await db('product_files').insert({
      product_id: ebook.id,
      name: 'Field Notes',
      file_name: 'field-notes.pdf',
      storage_name: 'e'.repeat(32),
      content_type: 'application/pdf',
      size_bytes: 10,
    });
    const mug = await createProductRow(db, {
      name: 'Penstand Mug',
      category: 'Merchandise',
      price: 2500,
      stock: null,
    });

    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    for (const id of [ebook.id, mug.id]) {
      await page.goto(`/product/${id}`);
      await page.waitForSelector('html[data-hydrated]');
      await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
      await page.getByText('Item successfully added to your cart', { exact: true }).waitFor();
    }
    await page.goto('/checkout');
    await page.waitForSelector('html[data-hydrated]');
    const summary = page.getByRole('region', { name: 'Order Summary' });
    const total = () => summary.locator('.summary-total').textContent();
    expect(await total()).toBe('Total$45.00');
    const methods = page.getByRole('group', { name: 'Shipping method' });
    await page.getByLabel('Country', { exact: true }).selectOption({ label: 'France' });
    await expect.poll(() => methods.getByRole('radio').count()).toBe(1);
    await page.getByLabel('Country', { exact: true }).selectOption({ label: 'Germany' });
    await methods.getByLabel('DHL Paket: $7.00').waitFor();
    // Germany's VAT on the items, as the order will compute it: 19% of $40.00.
    await summary.getByText('Tax (VAT 19%)', { exact: true }).waitFor();
    await expect.poll(total).toBe('Total$52.60');
    await page.getByLabel('Country', { exact: true }).selectOption({ label: 'Ireland' });
    await expect.poll(() => methods.getByRole('radio').count()).toBe(2);
    await methods.getByLabel('Express: $15.00').check();
    await expect.poll(total).toBe('Total$55.00');
    await expectAccessible(page);
    const fields = {
      'Full name': 'Grace Hopper',
      Email: 'grace@example.com',
      Address: '1 Quay Street',
      City: 'Dublin',
      'ZIP code': 'D02 XY45',
    };
    for (const [label, value] of Object.entries(fields))
      await page.getByLabel(label, { exact: true }).fill(value);
    const placeOrder = page.getByRole('button', { name: 'Place Order' });
    await placeOrder.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await placeOrder.click();
    await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    // The answer replaces the form in place: the shopper is taken to its top, its heading focused.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Order Confirmed!');
    const order = await db('orders').orderBy('id', 'desc').first();
    expect(order).toMatchObject({
      shipping_method: 'Express',
      shipping_cost: 1500,
      total_amount: 5500,
      country: 'IE',
    });

    // The admin marks it paid and ships it with FedEx: the timeline and the link follow.
    const admin = await signedInSession(app, { role: 'admin' });
    const adminContext = await newContext(browser, app.url);
    await addSessionCookie(adminContext, app.url, admin.sid);
    const adminPage = await adminContext.newPage();
    const adminProblems = await watchPage(adminPage);
    await adminPage.goto(`/admin/orders/${order.id}`);
    await adminPage.waitForSelector('html[data-hydrated]');
    await adminPage.getByRole('button', { name: 'Mark as paid' }).click();
    await expect.poll(() => adminPage.getByRole('status').textContent()).toContain('Marked as paid');
    await adminPage.getByLabel('Carrier').selectOption('FedEx');
    await adminPage.getByLabel('Tracking number').fill('7489 1234');
    await expectAccessible(adminPage);
    await adminPage.getByRole('button', { name: 'Ship Order' }).click();
    await expect.poll(() => adminPage.getByRole('status').textContent()).toContain('Order shipped');
    const link = adminPage.getByRole('link', { name: '7489 1234' });
    expect(await link.getAttribute('href')).toBe('https://www.fedex.com/fedextrack/?trknbr=7489%201234');
    await adminPage.getByText('FedEx, tracking number 7489 1234').waitFor();
    expect(adminProblems).toEqual([]);
    await adminContext.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('takes a country by its first letters and checks the postcode by its format, without JavaScript', {
    timeout: 90_000,
  }, async () => {
    const db = app.services.db;
    const book = await createProductRow(db, {
      name: 'Printed Notes',
      category: 'Books',
      price: 2000,
      stock: null,
    });
    const context = await newContext(browser, app.url, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/product/${book.id}`);
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await page.goto('/checkout');
    // A plain select: typing a name's first letters picks it, as in any select.
    const country = page.getByLabel('Country', { exact: true });
    await country.focus();
    await page.keyboard.type('Germ');
    expect(await country.inputValue()).toBe('DE');
    const fields = {
      'Full name': 'Lise Meitner',
      Email: 'lise@example.com',
      Address: 'Unter den Linden 6',
      City: 'Berlin',
      'ZIP code': '1010',
    };
    for (const [label, value] of Object.entries(fields))
      await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole('group', { name: 'Shipping method' }).getByLabel('DHL Paket: $7.00').check();
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByText('This is not a ZIP code of Germany', { exact: true }).waitFor();
    expect(await page.getByLabel('Country', { exact: true }).inputValue()).toBe('DE');
    await page.getByLabel('ZIP code', { exact: true }).fill('10117');
    await page.getByRole('group', { name: 'Shipping method' }).getByLabel('DHL Paket: $7.00').check();
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    const order = await db('orders').where({ email: 'lise@example.com' }).first();
    expect(order).toMatchObject({ country: 'DE', postal_code: '10117', shipping_method: 'DHL Paket' });
    await context.close();
  });

  it('accepts the postcodes of Switzerland, Austria, Denmark, Australia and the UK, with and without JavaScript', {
    timeout: 120_000,
  }, async () => {
    const db = app.services.db;
    const pen = await createProductRow(db, {
      name: 'Fountain Pen',
      category: 'Physical',
      price: 3000,
      stock: null,
    });
    const addresses = [
      ['Switzerland', 'CH', '8001'],
      ['Austria', 'AT', '1010'],
      ['Denmark', 'DK', '2000'],
      ['Australia', 'AU', '2000'],
      ['United Kingdom', 'GB', 'SW1A 1AA'],
    ] as const;
    for (const javaScriptEnabled of [true, false]) {
      const context = await newContext(browser, app.url, { javaScriptEnabled });
      const page = await context.newPage();
      const problems = await watchPage(page);
      for (const [name, code, postcode] of addresses) {
        await page.goto(`/product/${pen.id}`);
        if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated]');
        await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
        await page.getByText('Item successfully added to your cart', { exact: true }).waitFor();
        await page.goto('/checkout');
        if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated]');
        await page.getByLabel('Country', { exact: true }).selectOption({ label: name });
        const email = `${code.toLowerCase()}-${javaScriptEnabled ? 'js' : 'plain'}@example.com`;
        const fields = {
          'Full name': 'Ida Tarbell',
          Email: email,
          Address: '1 Main Street',
          City: 'Capital',
        };
        for (const [label, value] of Object.entries(fields))
          await page.getByLabel(label, { exact: true }).fill(value);
        await page.getByLabel('ZIP code', { exact: true }).fill(postcode);
        await page
          .getByRole('group', { name: 'Shipping method' })
          .getByLabel(/^Standard/)
          .check();
        await page.getByRole('button', { name: 'Place Order' }).click();
        await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
        expect(await db('orders').where({ email }).first('country', 'postal_code')).toEqual({
          country: code,
          postal_code: postcode,
        });
      }
      expect(problems).toEqual([]);
      await context.close();
    }
  });
});
