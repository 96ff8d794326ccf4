import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';

let app: TestApp;
let browser: Browser;
let sid: string;
let paths: string[];

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  await seedDemo(app);
  ({ sid } = await signedInSession(app, { role: 'admin' }));
  const product = await createProductRow(app.services.db, { stock: 5, name: 'Sweep mug' });
  const guest = new GuestClient(app);
  await guest.add(product.id, 1);
  const order = await guest.checkout(validCheckout);
  expect(order.status).toBe(201);
  const post = await app.services.db('posts').orderBy('id').first('id');
  paths = [
    '/admin',
    '/admin?tab=posts',
    '/admin?tab=products',
    '/admin?tab=comments',
    '/admin?tab=comments&view=all',
    '/admin?tab=orders',
    '/admin?tab=settings',
    '/admin/posts/new',
    `/admin/posts/${post.id}`,
    '/admin/products/new',
    `/admin/products/${product.id}`,
    `/admin/orders/${order.body.id}`,
    '/admin-debug',
  ];
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the post editor', () => {
  it('has no axe violation of any impact, its preview open too', { timeout: 120_000 }, async () => {
    const context = await newContext(browser, app.url);
    await addSessionCookie(context, app.url, sid);
    const page = await context.newPage();
    const post = await app.services.db('posts').orderBy('id').first('id');
    for (const path of ['/admin/posts/new', `/admin/posts/${post.id}`]) {
      await page.goto(path);
      await page.waitForSelector('html[data-hydrated]');
      await expectAccessible(page, ['minor', 'moderate', 'serious', 'critical']);
      await page.locator('button[aria-controls="post-preview"]').click();
      await page.waitForSelector('#post-preview[aria-busy="false"]');
      await expectAccessible(page, ['minor', 'moderate', 'serious', 'critical']);
    }
    await context.close();
  });
});

describe('every admin page', () => {
  it.each(['light', 'dark'] as const)(
    'has no serious or critical axe violations and no console errors (%s)',
    { timeout: 240_000 },
    async (colorScheme) => {
      const context = await newContext(browser, app.url, { colorScheme });
      await addSessionCookie(context, app.url, sid);
      const page = await context.newPage();
      const problems = await watchPage(page);
      for (const path of paths) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await page.waitForSelector('html[data-hydrated]');
        await expectAccessible(page);
      }
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});

describe('the admin tabs', () => {
  it('show every label whole on a 1366 px screen, with larger text too; a phone scrolls them', async () => {
    for (const [width, fontSize, fits] of [
      [1366, null, true],
      [1366, '24px', true],
      [375, null, false],
    ] as const) {
      const context = await newContext(browser, app.url, { width });
      await addSessionCookie(context, app.url, sid);
      const page = await context.newPage();
      await page.goto('/admin');
      // A reader's larger default text (Chrome's font size setting) scales every rem.
      if (fontSize) await page.addStyleTag({ content: `html { font-size: ${fontSize} }` });
      const bar = await page.locator('.admin-tabs').evaluate((el) => ({
        overflow: el.scrollWidth - el.clientWidth,
        cut: [...el.querySelectorAll('.admin-tab')]
          .filter((tab) => tab.getBoundingClientRect().right > el.getBoundingClientRect().right + 0.5)
          .map((tab) => tab.textContent),
      }));
      const label = `${width} px, ${fontSize ?? 'default'} text`;
      if (fits) expect(bar, label).toEqual({ overflow: 0, cut: [] });
      else expect(bar.overflow, label).toBeGreaterThan(0);
      await context.close();
    }
  });
});
