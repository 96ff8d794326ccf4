import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  await seedDemo(app);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('home page', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      it(`introduces the writer and leads with a post, steady and accessible (${colorScheme}, ${width} px)`, async () => {
        const context = await newContext(browser, app.url, { colorScheme, width });
        const page = await context.newPage();
        const problems = await watchPage(page);
        // Every layout shift from the first paint on, as Lighthouse counts them.
        await page.addInitScript(() => {
          (window as unknown as { shifts: number }).shifts = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
              if (!entry.hadRecentInput) (window as unknown as { shifts: number }).shifts += entry.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto('/');
        await page.waitForLoadState('networkidle');

        const hero = page.locator('.home-hero');
        expect(await hero.getByRole('heading', { level: 1 }).textContent()).toBe('Penstand');
        expect(await hero.textContent()).not.toMatch(/welcome/i);
        expect(await page.locator('.lead-post').getByRole('heading', { level: 2 }).count()).toBe(1);
        expect(await page.locator('.lead-post-meta').textContent()).toMatch(/\d+ min read$/);
        // Nothing wider than the phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeLessThan(
          0.05,
        );
        await expectAccessible(page);
        await page.screenshot({ path: `/tmp/home-${colorScheme}-${width}.png`, animations: 'disabled' });
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }

  it('works without JavaScript', async () => {
    const context = await newContext(browser, app.url, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    const lead = page.locator('.lead-post-title a');
    const href = await lead.getAttribute('href');
    await lead.click();
    expect(new URL(page.url()).pathname).toBe(href);
    await context.close();
  });

  it('shows on a phone that the admin tab bar scrolls: a shade at the edge with more tabs', async () => {
    const admin = await signedInSession(app, { role: 'admin' });
    const context = await newContext(browser, app.url, { width: 375 });
    await addSessionCookie(context, app.url, admin.sid);
    const page = await context.newPage();
    await page.goto('/admin');
    const tabs = page.locator('.admin-tabs');
    const overflow = await tabs.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeGreaterThan(0);
    expect(await tabs.evaluate((el) => getComputedStyle(el).backgroundImage)).toContain('radial-gradient');
    await context.close();
  });
});
