import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { MEDIUM_FIXTURE, SUBSTACK_FIXTURE, WXR_FIXTURE } from '../support/import-fixtures.ts';

const WXR = WXR_FIXTURE;

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ withWorker: true }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

it('imports a WordPress export on a phone in dark mode: upload, preview, import, report', {
  timeout: 120_000,
}, async () => {
  const { sid } = await signedInSession(app, { role: 'admin' });
  const context = await newContext(browser, app.url, { colorScheme: 'dark', width: 375 });
  await addSessionCookie(context, app.url, sid);
  const page = await context.newPage();
  const problems = await watchPage(page);
  const fitsWidth = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  await page.goto('/admin/import');
  await page.waitForSelector('html[data-hydrated]');
  await expectAccessible(page);
  await page.getByLabel('Export file').setInputFiles(WXR);
  await page.getByRole('button', { name: 'Upload and preview' }).click();

  await page.getByRole('heading', { name: 'Preview of wordpress-theme-unit-test.xml' }).waitFor();
  await page.waitForSelector('html[data-hydrated]');
  expect(await fitsWidth()).toBe(true);
  await expectAccessible(page);
  await page.getByLabel(/^Uncategorized \(/).selectOption('Lifestyle');
  await page.getByRole('button', { name: 'Import' }).click();

  await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  await expect
    .poll(() => page.locator('progress').getAttribute('value'))
    .toBe(await page.locator('progress').getAttribute('max'));
  await page.getByText('Skipped items').click();
  expect(await fitsWidth()).toBe(true);
  await expectAccessible(page);
  const [{ n }] = await app.services.db('posts').where({ category: 'Lifestyle' }).count({ n: '*' });
  expect(Number(n)).toBeGreaterThan(0);
  expect(problems).toEqual([]);
  await context.close();
});

/** The term/value pairs of the screen's counts. */
const counts = (page: Page) =>
  page
    .locator('.admin-import-counts')
    .first()
    .evaluate((list) => {
      const terms = [...list.querySelectorAll('dt')].map((dt) => dt.textContent ?? '');
      return Object.fromEntries(terms.map((term, i) => [term, list.querySelectorAll('dd')[i]?.textContent]));
    });

it('imports a Substack export: the preview counts paid posts and subscribers, then the report', {
  timeout: 120_000,
}, async () => {
  const { sid } = await signedInSession(app, { role: 'admin' });
  const context = await newContext(browser, app.url);
  await addSessionCookie(context, app.url, sid);
  const page = await context.newPage();
  const problems = await watchPage(page);

  await page.goto('/admin/import');
  await page.waitForSelector('html[data-hydrated]');
  await page.getByLabel('Export file').setInputFiles(SUBSTACK_FIXTURE);
  await page.getByRole('button', { name: 'Upload and preview' }).click();
  await page.getByRole('heading', { name: 'Preview of substack-export.zip' }).waitFor();
  expect(await counts(page)).toMatchObject({
    Posts: '5',
    Pages: '1',
    Drafts: '3',
    'Paid posts (as drafts)': '2',
    Subscribers: '5',
  });
  await page.getByText('Subscribers: 5 new (confirmed').waitFor();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Import' }).click();

  await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  expect(await counts(page)).toMatchObject({ Created: '6', Skipped: '2' });
  await page.getByText('Paid posts: 2, imported as drafts').waitFor();
  await expectAccessible(page);
  const { db } = app.services;
  expect(await db('posts').where({ source_system: 'substack' }).count({ n: '*' }).first()).toEqual({ n: 6 });
  expect(await db('newsletter_subscribers').where({ email: 'ada@example.com' }).first('status')).toEqual({
    status: 'confirmed',
  });
  expect(problems).toEqual([]);
  await context.close();
});

it('imports a Medium export with JavaScript off: plain form posts, the preview, then the report', {
  timeout: 120_000,
}, async () => {
  const { sid } = await signedInSession(app, { role: 'admin' });
  const context = await newContext(browser, app.url, { javaScriptEnabled: false });
  await addSessionCookie(context, app.url, sid);
  const page = await context.newPage();

  await page.goto('/admin/import');
  await page.getByLabel('Export file').setInputFiles(MEDIUM_FIXTURE);
  await page.getByRole('button', { name: 'Upload and preview' }).click();
  await page.getByRole('heading', { name: 'Preview of medium-export.zip' }).waitFor();
  expect(await counts(page)).toMatchObject({ Posts: '5', Drafts: '3' });
  await page.getByRole('button', { name: 'Import' }).click();

  // Without JavaScript the page does not poll: the writer reloads it until the job is done.
  await page.locator('progress').waitFor();
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByRole('heading', { level: 2 }).first().textContent();
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe('Import finished');
  expect(await page.locator('progress').getAttribute('value')).toBe('5');
  expect(await counts(page)).toMatchObject({ Created: '5', Skipped: '0' });
  const moved = await fetch(`${app.url}/@jowriter/ten-notebooks-later-9b8a7c6d5e4f`, { redirect: 'manual' });
  expect(moved.status).toBe(301);
  expect(moved.headers.get('location')).toMatch(/\/post\/ten-notebooks-later$/);
  await context.close();
});
