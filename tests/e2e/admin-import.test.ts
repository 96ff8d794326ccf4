import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { WXR_FIXTURE } from '../support/import-fixtures.ts';

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
