import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MESSAGES } from '../../src/shop/messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { createProductRow } from '../support/shop.ts';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function hydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated]');
}

describe('the cart with JavaScript', () => {
  it('clamps a typed quantity over the stock, says so, and drops the notice at the next action', async () => {
    const { db } = app.services;
    const mug = await createProductRow(db, { name: 'Stock Mug', stock: 3, price: 900 });
    const pen = await createProductRow(db, { name: 'Plain Pen', stock: null, price: 300 });
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    for (const product of [mug, pen]) {
      await hydrated(page, `/product/${product.id}`);
      await page.getByRole('button', { name: 'Add to Cart' }).click();
      await page.getByText('Item successfully added to your cart', { exact: true }).waitFor();
    }
    await hydrated(page, '/cart');
    const quantity = page.getByLabel('Quantity of Stock Mug', { exact: true });
    await quantity.click();
    await quantity.press('Control+A');
    await quantity.pressSequentially('99');
    await quantity.press('Enter');
    await page.getByText(SHOP_MESSAGES.stockLimitTitle, { exact: true }).waitFor();
    await expect.poll(() => quantity.inputValue()).toBe('3');
    expect(Number((await db('cart_items').where({ product_id: mug.id }).first()).quantity)).toBe(3);

    await page.getByRole('button', { name: 'Increase quantity of Plain Pen' }).click();
    await expect.poll(() => page.getByText(SHOP_MESSAGES.stockLimitTitle, { exact: true }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
