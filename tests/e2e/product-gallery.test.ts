import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStock } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
let productId: number;
let productPath: string;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  const [row] = await app.services
    .db('products')
    .insert({
      name: 'Desk set',
      description: 'A notebook, a mug and stickers for the desk.',
      price: 3900,
      category: 'Merchandise',
      image: '/demo/ebook.svg',
      images: JSON.stringify(['/demo/ebook.svg', '/demo/mug.svg', '/demo/stickers.svg']),
    })
    .returning('id');
  productId = row.id;
  await setStock(app.services.db, row.id, 8);
  productPath = `/product/${row.id}`;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Which image the row shows, by its scroll position (a fraction while it moves). */
const shown = (page: Page) =>
  page
    .locator('.gallery-track')
    .evaluate((track) => Math.round((track.scrollLeft / track.clientWidth) * 100) / 100);
const marked = (page: Page) => page.locator('.gallery-thumb[aria-current="true"]').getAttribute('aria-label');

describe('product gallery', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      it(`turns with the arrow keys and the thumbnails, focus in sight (${colorScheme}, ${width} px)`, async () => {
        const context = await newContext(browser, app.url, { colorScheme, width });
        const page = await context.newPage();
        const problems = await watchPage(page);
        await page.goto(productPath);
        await page.waitForLoadState('networkidle');
        await expectAccessible(page);

        // Tab reaches the row of images; its focus ring shows.
        const track = page.getByRole('region', { name: /3 images of Desk set/ });
        for (let i = 0; i < 40 && !(await track.evaluate((el) => el === document.activeElement)); i++) {
          await page.keyboard.press('Tab');
        }
        expect(await track.evaluate((el) => el === document.activeElement)).toBe(true);
        expect(await track.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');

        await page.keyboard.press('ArrowRight');
        await expect.poll(() => shown(page)).toBe(1);
        await expect.poll(() => marked(page)).toBe('Show image 2 of 3');
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => shown(page)).toBe(2);
        await page.keyboard.press('ArrowLeft');
        await expect.poll(() => shown(page)).toBe(1);
        await page.keyboard.press('End');
        await expect.poll(() => shown(page)).toBe(2);
        await expect.poll(() => marked(page)).toBe('Show image 3 of 3');

        // The thumbnails are links: Enter on the first brings it back without moving the page.
        const scrollY = await page.evaluate(() => window.scrollY);
        await page.keyboard.press('Tab');
        const first = page.getByRole('link', { name: 'Show image 1 of 3' });
        expect(await first.evaluate((el) => el === document.activeElement)).toBe(true);
        expect(await first.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
        await page.keyboard.press('Enter');
        await expect.poll(() => shown(page)).toBe(0);
        await expect.poll(() => marked(page)).toBe('Show image 1 of 3');
        expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);
        expect(new URL(page.url()).hash).toBe('');
        // For a look at the page in each theme and width (the README's screenshots).
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `/tmp/product-${colorScheme}-${width}.png`, animations: 'disabled' });
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }

  it('works without JavaScript: a thumbnail link scrolls its image into view', async () => {
    const context = await newContext(browser, app.url, { width: 375, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(productPath);
    await page.getByRole('link', { name: 'Show image 3 of 3' }).click();
    expect(new URL(page.url()).hash).toBe('#product-image-3');
    await expect.poll(() => shown(page)).toBe(2);
    await context.close();
  });

  it('lets the admin reorder, remove and upload images in the product editor', async () => {
    const admin = await signedInSession(app, { role: 'admin' });
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0ea5e9' } })
      .png()
      .toBuffer();
    const context = await newContext(browser, app.url, { width: 375 });
    await addSessionCookie(context, app.url, admin.sid);
    const page = await context.newPage();
    const problems = await watchPage(page);
    await page.goto(`/admin/products/${productId}`);
    await page.waitForSelector('html[data-hydrated]');
    const fields = () =>
      page
        .locator('.product-images-list input[name="images"]')
        .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(await fields()).toEqual(['/demo/ebook.svg', '/demo/mug.svg', '/demo/stickers.svg']);
    await page.getByRole('button', { name: 'Move image 2 up' }).click();
    await page.getByRole('button', { name: 'Remove image 3' }).click();
    expect(await fields()).toEqual(['/demo/mug.svg', '/demo/ebook.svg']);
    await page
      .getByLabel('Upload images')
      .setInputFiles({ name: 'side.png', mimeType: 'image/png', buffer: png });
    await expect.poll(async () => (await fields()).length).toBe(3);
    const uploaded = (await fields())[2];
    expect(uploaded).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Update Product' }).click();
    await page.waitForURL('**/admin?tab=products**');
    const row = await app.services.db('products').where({ id: productId }).first('image', 'images');
    expect(row).toEqual({
      image: '/demo/mug.svg',
      images: ['/demo/mug.svg', '/demo/ebook.svg', uploaded],
    });
    expect(problems).toEqual([]);
    await context.close();
  });
});
