import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost } from '../../src/blog/post-editor.ts';
import { postInputSchema } from '../../src/blog/post-schema.ts';
import { getBlogSettings, updateBlogSettings } from '../../src/settings/settings.ts';
import { blogSettingsSchema } from '../../src/settings/settings-schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the shell', () => {
  it('switches theme, remembers it across reloads and tells the server through a cookie', async () => {
    const context = await newContext(browser, app.url, { colorScheme: 'light' });
    const page = await context.newPage();
    const problems = await watchPage(page);
    await page.goto('/');
    const html = page.locator('html');
    await expect.poll(() => html.getAttribute('class')).toBe('light');

    await page.waitForSelector('html[data-hydrated]');
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    expect(await toggle.getAttribute('aria-label')).toBe('Theme: System. Switch to light theme');
    await toggle.click(); // system → light
    await expect.poll(() => page.evaluate(() => localStorage.getItem('blog-theme'))).toBe('light');
    await toggle.click(); // light → dark
    await expect.poll(() => html.getAttribute('class')).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('blog-theme'))).toBe('dark');

    await page.reload();
    await expect.poll(() => html.getAttribute('class')).toBe('dark');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'theme')?.value).toBe('dark');
    // The server renders the stored theme itself, so there is no flash before the script runs.
    const serverHtml = await (await fetch(`${app.url}/`, { headers: { cookie: 'theme=dark' } })).text();
    expect(serverHtml).toMatch(/<html lang="en" class="dark"/);

    await page.waitForSelector('html[data-hydrated]');
    await page.getByRole('button', { name: /^Theme:/ }).click(); // dark → system (follows the device: light)
    await expect.poll(() => page.evaluate(() => localStorage.getItem('blog-theme'))).toBe('system');
    await expect.poll(() => html.getAttribute('class')).toBe('light');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('follows a dark device when the preference is system', async () => {
    const context = await newContext(browser, app.url, { colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto('/');
    await expect.poll(() => page.locator('html').getAttribute('class')).toBe('dark');
    await expectAccessible(page);
    await context.close();
  });

  it('answers an unknown path with a 404 page for readers: search, the latest posts, home', async () => {
    const input = postInputSchema.parse({
      title: 'A Post Worth Finding',
      content: 'Words.',
      excerpt: 'An excerpt',
      category: 'Technology',
      status: 'published',
    });
    const post = await createPost(app.services.db, app.services.queues, input, null);
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const response = await page.goto('/this/does/not/exist');
    expect(response?.status()).toBe(404);
    await page.waitForSelector('html[data-hydrated]');
    const main = page.locator('main');
    expect(await main.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    expect(await main.textContent()).not.toContain('router');
    expect(await main.getByRole('link', { name: 'A Post Worth Finding' }).getAttribute('href')).toBe(
      `/post/${post.slug}`,
    );
    expect(await main.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
    await expectAccessible(page);
    await main.getByRole('searchbox', { name: 'Search posts' }).fill('Worth');
    await main.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL('**/blog?q=Worth');
    await context.close();
  });

  it('collapses the menu at phone width and opens it from the menu button', async () => {
    const context = await newContext(browser, app.url, { width: 375 });
    const page = await context.newPage();
    await page.goto('/');
    await page.waitForSelector('html[data-hydrated]');
    const about = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' });
    expect(await about.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await about.isVisible()).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await context.close();
  });

  it('reaches the phone menu by keyboard alone: Tab to the button, Enter opens, Escape closes', async () => {
    const context = await newContext(browser, app.url, { width: 375 });
    const page = await context.newPage();
    await page.goto('/about');
    await page.waitForSelector('html[data-hydrated]');
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
      });
    for (let i = 0; i < 10 && (await focused()) !== 'Open menu'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Open menu');
    await page.keyboard.press('Enter');
    // Focus moves into the menu that opened, so Tab walks its links next.
    await expect.poll(focused).toBe('Home');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('About');
    await page.keyboard.press('Escape');
    await expect.poll(focused).toBe('Open menu');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'About' }).isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('Home');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.url}/about`);
    await context.close();
  });

  it('fits 375 px signed in with a long address and a long blog title, in light and dark', async () => {
    const { sid } = await signedInSession(app, {
      role: 'admin',
      email: 'a.very.long.address.for.the.header@subdomain.example.com',
    });
    const settings = await getBlogSettings(app.services.db);
    const save = (title: string) =>
      updateBlogSettings(app.services.db, blogSettingsSchema.parse({ ...settings, title }));
    await save('A Considerably Longer Blog Title Than Usual');
    try {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await newContext(browser, app.url, { width: 375, colorScheme });
        await addSessionCookie(context, app.url, sid);
        const page = await context.newPage();
        for (const path of ['/', '/cart', '/admin']) {
          await page.goto(path);
          await page.waitForSelector('html[data-hydrated]');
          const wide = await page.evaluate(() =>
            [...document.querySelectorAll('header *')]
              .filter((el) => el.getBoundingClientRect().right > window.innerWidth)
              .map((el) => el.className),
          );
          expect(wide, `${colorScheme} ${path}`).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBe(375);
          const header = page.getByRole('banner');
          for (const control of [
            header.getByRole('link', { name: /^Cart,/ }),
            header.getByRole('button', { name: /^Theme:/ }),
            header.locator('summary', { hasText: 'account menu' }),
            header.getByRole('button', { name: 'Open menu' }),
          ])
            expect(await control.isVisible(), String(control)).toBe(true);
        }
        await expectAccessible(page);
        await context.close();
      }
    } finally {
      await save(settings.title);
    }
  });

  it('shows the whole logo on a phone when signed in: the user menu is an icon with the address inside', async () => {
    const { sid } = await signedInSession(app, {
      email: 'another.long.address.for.the.header@subdomain.example.com',
    });
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await newContext(browser, app.url, { width: 375, colorScheme });
      await addSessionCookie(context, app.url, sid);
      const page = await context.newPage();
      await page.goto('/');
      await page.waitForSelector('html[data-hydrated]');
      const logo = page.locator('.site-header .brand .logo-text');
      expect(await logo.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const menu = page.getByRole('banner').locator('summary', { hasText: 'account menu' });
      expect(await menu.locator('.user-menu-icon').isVisible()).toBe(true);
      await menu.click();
      expect(
        await page.getByText('another.long.address.for.the.header@subdomain.example.com').last().isVisible(),
      ).toBe(true);
      await context.close();
    }
  });

  it('shows the menu links without JavaScript at phone width', async () => {
    const context = await newContext(browser, app.url, { width: 375, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'About', 'Shop'])
      expect(await nav.getByRole('link', { name }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    await context.close();
  });

  it('has one newsletter form in the footer of every page: an empty address does nothing, a real one subscribes', async () => {
    const context = await newContext(browser, app.url);
    const tour = await context.newPage();
    for (const path of ['/', '/about', '/shop', '/blog', '/this/does/not/exist']) {
      await tour.goto(path);
      const footer = tour.locator('footer');
      expect(await footer.getByRole('heading', { name: 'Newsletter' }).count(), path).toBe(1);
      expect(await footer.locator('form[action="/newsletter"]').count(), path).toBe(1);
    }
    const page = await context.newPage();
    const problems = await watchPage(page);
    await page.goto('/about');
    await page.waitForSelector('html[data-hydrated]');
    const footer = page.locator('footer');
    const field = footer.getByLabel('Email address');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await field.fill('   ');
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForTimeout(500);
    expect(posts).toEqual([]);
    expect(await footer.getByRole('status').count()).toBe(0);

    await field.fill('footer-reader@example.com');
    await field.press('Enter');
    await expect
      .poll(() => footer.getByRole('status').textContent())
      .toBe('Check your inbox We sent you a link to confirm your subscription to the newsletter.');
    expect(await field.inputValue()).toBe('');
    expect(page.url()).toBe(`${app.url}/about`);
    const row = await app.services
      .db('newsletter_subscribers')
      .where({ email: 'footer-reader@example.com' })
      .first();
    expect(row?.status).toBe('pending');
    expect(problems).toEqual([]);
    await context.close();
  });
});
