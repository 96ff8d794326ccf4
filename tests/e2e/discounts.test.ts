import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOUNT_MESSAGES } from '../../src/shop/discount-schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { createProductRow, validCheckout } from '../support/shop.ts';

let app: TestApp;
let browser: Browser;
let sid: string;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  ({ sid } = await signedInSession(app, { role: 'admin' }));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('discount codes in Chromium at 375 px', () => {
  it.each(['light', 'dark'] as const)(
    'the admin creates a code, a buyer applies it at checkout, the admin sees it used and deactivates it (%s)',
    { timeout: 180_000 },
    async (colorScheme) => {
      const code = `PHONE-${colorScheme}`.toUpperCase();
      const product = await createProductRow(app.services.db, {
        price: 4000,
        stock: null,
        name: `Mug ${code}`,
      });
      const context = await newContext(browser, app.url, { colorScheme, width: 375 });
      const page = await context.newPage();
      const problems = await watchPage(page);
      const fitsWidth = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      await addSessionCookie(context, app.url, sid);

      await page.goto('/admin?tab=discounts');
      await page.waitForSelector('html[data-hydrated]');
      await expectAccessible(page);
      expect(await fitsWidth()).toBe(true);
      await page.getByLabel('Code', { exact: true }).fill(code);
      await page.getByLabel('Type').selectOption('percent');
      await page.getByLabel(/^Value/).fill('150');
      await page.getByRole('button', { name: 'Create code' }).click();
      await page.getByText(DISCOUNT_MESSAGES.percent).first().waitFor();
      await expectAccessible(page);
      await page.getByLabel(/^Value/).fill('25');
      await page.getByLabel(/^Total usage limit/).fill('3');
      await page.getByRole('button', { name: 'Create code' }).click();
      await page.getByText(DISCOUNT_MESSAGES.created).waitFor();
      await page.getByRole('heading', { name: code }).waitFor();
      expect(await fitsWidth()).toBe(true);
      await expectAccessible(page);

      // The buyer (same browser, a cart of its own) applies the code at checkout.
      await page.goto(`/product/${product.id}`);
      await page.waitForSelector('html[data-hydrated]');
      await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
      await page.getByText('Added to cart').first().waitFor();
      await page.goto('/checkout');
      await page.waitForSelector('html[data-hydrated]');
      await page.getByLabel('Discount code').fill('nope');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText(DISCOUNT_MESSAGES.unknown).waitFor();
      await page.getByLabel('Discount code').fill(code.toLowerCase());
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText(`Discount (${code})`).waitFor();
      await expect.poll(() => page.locator('.summary-total').textContent()).toContain('$30.00');
      expect(await fitsWidth()).toBe(true);
      await expectAccessible(page);
      await page.getByLabel('Full name').fill(validCheckout.customerName);
      await page.locator('main').getByLabel('Email').fill(`${colorScheme}@example.com`);
      await page.getByLabel('Address', { exact: true }).fill(validCheckout.address);
      await page.getByLabel('City').fill(validCheckout.city);
      await page.getByLabel('ZIP code').fill(validCheckout.zipCode);
      await page.getByLabel('Country').selectOption(validCheckout.country);
      await page.getByRole('button', { name: 'Place Order' }).click();
      await page.getByText('Order Confirmed!').waitFor();
      await page.locator('.confirmation-details').getByText('$30.00', { exact: true }).waitFor();

      const order = await app.services.db('orders').where({ discount_code: code }).first('id');
      await page.goto(`/admin/orders/${order.id}`);
      await page.waitForSelector('html[data-hydrated]');
      await page.getByText(`Discount (${code})`).waitFor();
      await expectAccessible(page);

      await page.goto('/admin?tab=discounts');
      await page.waitForSelector('html[data-hydrated]');
      await page.getByText('Uses: 1 of 3').first().waitFor();
      await page.getByRole('button', { name: `Deactivate ${code}` }).click();
      await page.getByText(DISCOUNT_MESSAGES.deactivated).waitFor();
      await expectAccessible(page);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
