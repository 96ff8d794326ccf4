import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, getProduct, type Product } from '../../src/shop/products.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
let shirt: Product;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  shirt = await createProduct(app.services.db, {
    name: 'Variant tee',
    description: 'Cotton.',
    price: 2500,
    category: 'Merchandise',
    options: [
      { name: 'Size', values: ['S', 'L', 'XL'] },
      { name: 'Colour', values: ['Black', 'Blue'] },
    ],
    variants: ['S', 'L', 'XL'].flatMap((size) =>
      ['Black', 'Blue'].map((colour) => ({
        options: { Size: size, Colour: colour },
        stock: size === 'S' && colour === 'Black' ? 0 : size === 'L' && colour === 'Black' ? 2 : 20,
        sku: `VT-${size}-${colour}`,
        ...(size === 'XL' ? { price: 2800 } : {}),
      })),
    ),
  });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const price = (page: Page) => page.locator('.product-price-large').textContent();
const choose = (page: Page, option: string, value: string) =>
  page
    .getByRole('group', { name: option })
    .getByRole('radio', { name: new RegExp(`^${value}\\b`) })
    .check();

describe('a product with variants', () => {
  it('shows the chosen variant’s price and stock, marks sold-out choices, and adds it (with JavaScript)', async () => {
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    await page.goto(`/product/${shirt.id}`);
    await page.waitForLoadState('networkidle');
    await expectAccessible(page);
    expect(await price(page)).toBe('from $25.00');

    await choose(page, 'Size', 'L');
    await choose(page, 'Colour', 'Black');
    expect(await price(page)).toBe('$25.00');
    await expect.poll(() => page.locator('.product-badges').textContent()).toContain('2 in stock');
    await choose(page, 'Size', 'S');
    // Small black is sold out: its colour is marked, and nothing can be bought of it.
    await expect
      .poll(() =>
        page.getByRole('group', { name: 'Colour' }).locator('label', { hasText: 'Black' }).textContent(),
      )
      .toBe('Black (Out of stock)');
    expect(await page.getByRole('button', { name: 'Add to Cart' }).isDisabled()).toBe(true);

    await choose(page, 'Size', 'XL');
    await choose(page, 'Colour', 'Blue');
    expect(await price(page)).toBe('$28.00');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Added to cart');

    await page.goto('/cart');
    await expect.poll(() => page.locator('.cart-line').textContent()).toContain('Size: XL, Colour: Blue');
    expect(await page.locator('.cart-line').textContent()).toContain('$28.00');
    await page.goto('/checkout');
    expect(await page.locator('.checkout-lines').textContent()).toContain(
      'Variant tee (Size: XL, Colour: Blue)',
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('is chosen with plain radio buttons without JavaScript, and refused until a size is chosen', async () => {
    const context = await newContext(browser, app.url, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/product/${shirt.id}`);
    // Every choice's price and stock, sold-out ones marked, without a script.
    const table = page.locator('.variant-table');
    expect(await table.locator('tr', { hasText: 'Size: S, Colour: Black' }).textContent()).toContain(
      'Out of stock',
    );
    expect(await table.locator('tr', { hasText: 'Size: XL, Colour: Blue' }).textContent()).toContain(
      '$28.00',
    );

    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toContain('Choose a size');

    await choose(page, 'Size', 'L');
    await choose(page, 'Colour', 'Blue');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('status').textContent()).toContain('Added to cart');
    await page.goto('/cart');
    expect(await page.locator('.cart-line').textContent()).toContain('Size: L, Colour: Blue');
    await context.close();
  });

  it('is edited in the admin: a variant’s stock in the table, and a new value makes new variants', async () => {
    const { sid } = await signedInSession(app, { role: 'admin' });
    const context = await newContext(browser, app.url);
    await addSessionCookie(context, app.url, sid);
    const page = await context.newPage();
    await page.goto(`/admin/products/${shirt.id}`);
    await page.getByLabel('Stock of Size: L, Colour: Black').fill('9');
    const options = page.getByLabel('Options');
    expect(await options.inputValue()).toBe('Size: S, L, XL\nColour: Black, Blue');
    await options.fill('Size: S, L, XL, XXL\nColour: Black, Blue');
    await page.getByRole('button', { name: 'Update Product' }).click();
    await page.waitForURL(/tab=products/);

    const saved = (await getProduct(app.services.db, shirt.id)) as Product;
    const byLabel = new Map(saved.variants.map((v) => [v.label, v]));
    expect(byLabel.get('Size: L, Colour: Black')?.stock).toBe(9);
    // Kept variants keep their ids, stock and price; new ones start unlimited at the product's price.
    const before = shirt.variants.find((v) => v.label === 'Size: XL, Colour: Blue');
    expect(byLabel.get('Size: XL, Colour: Blue')).toMatchObject({ id: before?.id, stock: 20, price: 2800 });
    expect(byLabel.get('Size: XXL, Colour: Black')).toMatchObject({ stock: null, price: null });
    expect(saved.variants).toHaveLength(8);
    await context.close();
  });
});
