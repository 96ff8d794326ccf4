import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { launchBrowser, newContext } from '../support/browser.ts';

/**
 * Every page type of the demo site, in the browser: nothing wider than a 320 px phone, the post
 * filters on one line at 1280 px, cards of a row of equal height. `npm run screenshots` runs this
 * file with SCREENSHOTS set to write each page type in both themes at 1280 and 375 px.
 */
const SCREENSHOTS = process.env.SCREENSHOTS;

let app: TestApp;
let browser: Browser;
let adminSid: string;
let pages: { name: string; path: string; admin?: boolean }[];
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  await seedDemo(app);
  adminSid = (await signedInSession(app, { role: 'admin' })).sid;
  const { db } = app.services;
  const slugOf = async (where: (q: ReturnType<typeof db>) => unknown) => {
    const query = db('posts').where({ status: 'published' }).orderBy('published_at', 'desc');
    where(query);
    return (await query.first('slug')).slug as string;
  };
  const product = await db('products')
    .where({ status: 'active' })
    .whereRaw('NOT EXISTS (SELECT 1 FROM stock_levels s WHERE s.product_id = products.id AND s.stock = 0)')
    .first('id');
  pages = [
    { name: 'home', path: '/' },
    { name: 'blog', path: '/blog' },
    {
      name: 'post',
      path: `/post/${await slugOf((q) => q.whereNull('youtube_video_id').whereNull('podcast_url'))}`,
    },
    { name: 'post-video', path: `/post/${await slugOf((q) => q.whereNotNull('youtube_video_id'))}` },
    { name: 'post-podcast', path: `/post/${await slugOf((q) => q.whereNotNull('podcast_url'))}` },
    { name: 'about', path: '/about' },
    { name: 'reader-shop', path: '/shop' },
    { name: 'reader-product', path: `/product/${product.id}` },
    { name: 'cart', path: '/cart' },
    { name: 'checkout', path: '/checkout' },
    { name: 'login', path: '/login' },
    { name: 'order-lookup', path: '/orders/lookup' },
    { name: 'not-found', path: '/no-such-page' },
    { name: 'admin', path: '/admin', admin: true },
  ];
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A visitor (or the admin) with one thing in the cart, so the cart and checkout show their layout. */
async function visitor(opts: Parameters<typeof newContext>[2], admin = false): Promise<BrowserContext> {
  const context = await newContext(browser, app.url, opts);
  if (admin) await addSessionCookie(context, app.url, adminSid);
  const page = await context.newPage();
  await page.goto('/shop');
  await page.waitForSelector('html[data-hydrated]');
  await page.locator('.product-card-action button:not([disabled])').first().click();
  await page.getByRole('link', { name: /^Cart, [1-9]/ }).waitFor();
  await page.close();
  return context;
}

/** A page as it settles: hydrated where it hydrates (a post page is plain HTML), its fonts in. */
async function open(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.evaluate(() => document.fonts.ready);
}

describe('every page type', () => {
  it('fits a 320 px screen without scrolling sideways, for a visitor and for the admin', {
    timeout: 240_000,
  }, async () => {
    for (const admin of [false, true]) {
      const context = await visitor({ width: 320 }, admin);
      const page = await context.newPage();
      for (const { name, path: url } of pages.filter((p) => Boolean(p.admin) === admin)) {
        await open(page, url);
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
            // Inside a box that scrolls or clips on purpose (a carousel, a gallery, code, the admin's tabs) is fine.
            .filter((el) => {
              for (let box = el.parentElement; box; box = box.parentElement)
                if (getComputedStyle(box).overflowX !== 'visible') return false;
              return true;
            })
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
        );
        expect(wide, name).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBe(320);
      }
      await context.close();
    }
  });

  it('puts search, category and Search on one line at 1280 px, and cards of a row at one height', async () => {
    const context = await newContext(browser, app.url, { width: 1280 });
    const page = await context.newPage();
    for (const url of ['/', '/blog']) {
      await open(page, url);
      const form = page.getByRole('search').first();
      const middles = await form.locator('input[type="search"], select, button').evaluateAll((els) =>
        els.map((el) => {
          const box = el.getBoundingClientRect();
          return box.top + box.height / 2;
        }),
      );
      expect(middles.length, url).toBe(3);
      expect(Math.max(...middles) - Math.min(...middles), `${url}: ${middles}`).toBeLessThan(4);
    }
    for (const [url, card] of [
      ['/blog', '.post-grid .post-card'],
      ['/shop', '.product-grid .product-card'],
    ]) {
      await open(page, url);
      const boxes = await page
        .locator(card)
        .evaluateAll((els) =>
          els.map((el) => el.getBoundingClientRect()).map((r) => ({ top: r.top, height: r.height })),
        );
      const firstRow = boxes.filter((b) => b.top === boxes[0].top);
      expect(firstRow.length, url).toBeGreaterThan(1);
      expect(new Set(firstRow.map((b) => Math.round(b.height))).size, url).toBe(1);
    }
    await context.close();
  });

  it.runIf(SCREENSHOTS)(
    'writes a screenshot of each page type in both themes at both widths',
    {
      timeout: 600_000,
    },
    async () => {
      const dir = path.resolve(SCREENSHOTS ?? '');
      await mkdir(dir, { recursive: true });
      for (const colorScheme of ['light', 'dark'] as const)
        for (const width of [1280, 375])
          for (const admin of [false, true]) {
            const context = await visitor({ width, colorScheme }, admin);
            const page = await context.newPage();
            for (const { name, path: url } of pages.filter((p) => Boolean(p.admin) === admin)) {
              await open(page, url);
              // A full-page picture shows what is below the fold: its lazy images load now.
              await page.evaluate(() => {
                for (const img of document.querySelectorAll('img[loading="lazy"]'))
                  img.setAttribute('loading', 'eager');
              });
              await page.waitForLoadState('networkidle');
              const file = path.join(dir, `${name}-${colorScheme}-${width}.png`);
              await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
            }
            await context.close();
          }
    },
  );
});
