import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openZip } from '../../src/import/zip.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';
import {
  GHOST_FIXTURE,
  GHOST_MEMBERS_FIXTURE,
  MEDIUM_FIXTURE,
  SUBSTACK_FIXTURE,
  WXR_FIXTURE,
} from '../support/import-fixtures.ts';

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ withWorker: true }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
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

type Screen = { preview: Record<string, string>; report: Record<string, string>; page: Page };

/**
 * A writer's way through Admin → Import: choose the file, 'Upload and preview', read the preview,
 * 'Import', wait for the report. Without JavaScript every step is a plain form post, and the writer
 * reloads the progress page until the job is done.
 */
async function importThroughScreen(
  file: string,
  options: {
    javaScript: boolean;
    width?: number;
    colorScheme?: 'dark';
    beforeImport?: (page: Page) => Promise<unknown>;
  },
): Promise<Screen> {
  const { sid } = await signedInSession(app, { role: 'admin' });
  const context = await newContext(browser, app.url, {
    javaScriptEnabled: options.javaScript,
    width: options.width,
    colorScheme: options.colorScheme,
  });
  await addSessionCookie(context, app.url, sid);
  const page = await context.newPage();
  const problems = await watchPage(page);
  const hydrated = () => (options.javaScript ? page.waitForSelector('html[data-hydrated]') : null);
  // A locator's evaluate runs in Playwright's own world, which works with the page's JavaScript off.
  const fitsWidth = () => page.locator('html').evaluate((html) => html.scrollWidth <= window.innerWidth);
  // axe runs as the page's script: checked where JavaScript is on (the same markup).
  const accessible = () => (options.javaScript ? expectAccessible(page) : null);

  await page.goto('/admin/import');
  await hydrated();
  await page.getByLabel('Export file').setInputFiles(file);
  await page.getByRole('button', { name: 'Upload and preview' }).click();
  await page.getByRole('heading', { name: `Preview of ${path.basename(file)}` }).waitFor();
  await hydrated();
  expect(await fitsWidth()).toBe(true);
  await accessible();
  const preview = await counts(page);
  await options.beforeImport?.(page);
  await page.getByRole('button', { name: 'Import' }).click();

  if (options.javaScript)
    await page.getByRole('heading', { name: 'Import finished' }).waitFor({ timeout: 60_000 });
  else {
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
  }
  const progress = page.locator('progress');
  expect(await progress.getAttribute('value')).toBe(await progress.getAttribute('max'));
  expect(await fitsWidth()).toBe(true);
  await accessible();
  expect(problems).toEqual([]);
  return { preview, report: await counts(page), page };
}

/** The Substack subscriber list as a file of its own, as Substack's Subscribers → Export downloads it. */
async function substackSubscriberList(): Promise<string> {
  const zip = await openZip(SUBSTACK_FIXTURE);
  try {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'penstand-list-')), 'email_list.fieldnotes.csv');
    await writeFile(file, await zip.read('email_list.fieldnotes.csv'));
    return file;
  } finally {
    zip.close();
  }
}

/**
 * Each format, imported twice through the screen: with JavaScript, then the same file again
 * without it (a plain form post that returns the report), which must create nothing.
 */
it('imports a WordPress export on a phone in dark mode, then again without JavaScript', {
  timeout: 180_000,
}, async () => {
  const mapToLifestyle = (page: Page) => page.getByLabel(/^Uncategorized \(/).selectOption('Lifestyle');
  const first = await importThroughScreen(WXR_FIXTURE, {
    javaScript: true,
    width: 375,
    colorScheme: 'dark',
    beforeImport: mapToLifestyle,
  });
  await first.page.getByText('Skipped items').click();
  const created = Number(first.report.Created);
  expect(created).toBe(Number(first.preview.Posts) + Number(first.preview.Pages));
  const [{ n }] = await app.services.db('posts').where({ category: 'Lifestyle' }).count({ n: '*' });
  expect(Number(n)).toBeGreaterThan(0);

  const again = await importThroughScreen(WXR_FIXTURE, { javaScript: false, beforeImport: mapToLifestyle });
  expect(again.preview).toEqual(first.preview);
  expect(again.report).toMatchObject({ Created: '0', Updated: '0', Unchanged: String(created) });
});

it('imports a Ghost export, then again without JavaScript', { timeout: 180_000 }, async () => {
  const first = await importThroughScreen(GHOST_FIXTURE, { javaScript: true });
  const created = Number(first.report.Created);
  expect(created).toBeGreaterThan(0);
  expect(created).toBe(Number(first.preview.Posts) + Number(first.preview.Pages));
  const again = await importThroughScreen(GHOST_FIXTURE, { javaScript: false });
  expect(again.report).toMatchObject({ Created: '0', Updated: '0', Unchanged: String(created) });
});

it('imports a Substack export: paid posts and subscribers in the preview and report, then again without JavaScript', {
  timeout: 180_000,
}, async () => {
  const first = await importThroughScreen(SUBSTACK_FIXTURE, { javaScript: true });
  expect(first.preview).toMatchObject({
    Posts: '5',
    Pages: '1',
    Drafts: '1',
    'Paid posts (for paying members)': '2',
    Subscribers: '5',
  });
  expect(first.report).toMatchObject({ Created: '6', Skipped: '2' });
  await first.page.getByText('Paid posts: 2, for paying members only').waitFor();
  await first.page.getByText('Subscribers: 5 new (confirmed').waitFor();
  await first.page.getByText('Members: 6 new accounts').waitFor();
  const { db } = app.services;
  expect(await db('posts').where({ source_system: 'substack' }).count({ n: '*' }).first()).toEqual({ n: 6 });
  expect(await db('newsletter_subscribers').where({ email: 'ada@example.com' }).first('status')).toEqual({
    status: 'confirmed',
  });

  const again = await importThroughScreen(SUBSTACK_FIXTURE, { javaScript: false });
  expect(again.report).toMatchObject({ Created: '0', Updated: '0', Unchanged: '6' });
  await again.page
    .getByText('Subscribers: 0 new (confirmed: they opted in on the old site), 5 already here')
    .waitFor();
});

it('imports a Medium export with JavaScript, then again without it; old addresses redirect', {
  timeout: 180_000,
}, async () => {
  const first = await importThroughScreen(MEDIUM_FIXTURE, { javaScript: true });
  expect(first.preview).toMatchObject({ Posts: '5', Drafts: '3' });
  expect(first.report).toMatchObject({ Created: '5', Skipped: '0' });
  const again = await importThroughScreen(MEDIUM_FIXTURE, { javaScript: false });
  expect(again.report).toMatchObject({ Created: '0', Updated: '0', Unchanged: '5' });
  const moved = await fetch(`${app.url}/@jowriter/ten-notebooks-later-9b8a7c6d5e4f`, { redirect: 'manual' });
  expect(moved.status).toBe(301);
  expect(moved.headers.get('location')).toMatch(/\/post\/ten-notebooks-later$/);
});

it("imports member lists (Ghost's members export, Substack's subscriber list) with and without JavaScript", {
  timeout: 180_000,
}, async () => {
  const { db } = app.services;
  // Ghost's: 5 members, one with emails turned off, one complimentary and one paying (added as free),
  // and ada, who came with the Substack export.
  const ghost = await importThroughScreen(GHOST_MEMBERS_FIXTURE, { javaScript: true });
  expect(ghost.preview).toEqual({ Rows: '5', Subscribers: '4' });
  expect(ghost.report).toEqual({ Rows: '5', Subscribers: '4' });
  await ghost.page
    .getByText(
      'Subscribers: 3 new (confirmed: they opted in on the old site), 1 already here; left out: 1 with emails turned off',
    )
    .waitFor();
  // Everyone is a member now (quiet too); with no tier and no Stripe key, the comped and paying ones stay free.
  await ghost.page
    .getByText(
      'Members: 4 new accounts (they sign in by resetting their password), 1 already here; 0 comped, 0 linked to their Stripe subscription, 2 paying or comped there left free',
    )
    .waitFor();
  await ghost.page
    .getByText('member paying@example.net: paying on the old site, not linked: no Stripe key is set here')
    .waitFor();
  expect(await db('newsletter_subscribers').where({ email: 'friend@example.org' }).first('status')).toEqual({
    status: 'confirmed',
  });
  expect(await db('newsletter_subscribers').where({ email: 'quiet@example.com' }).first()).toBeUndefined();
  const ghostAgain = await importThroughScreen(GHOST_MEMBERS_FIXTURE, { javaScript: false });
  await ghostAgain.page
    .getByText('Subscribers: 0 new (confirmed: they opted in on the old site), 4 already here')
    .waitFor();
  await ghostAgain.page
    .getByText('Members: 0 new accounts (they sign in by resetting their password), 5 already here')
    .waitFor();

  // Substack's, on its own: all of them came with the Substack export.
  const list = await substackSubscriberList();
  const substack = await importThroughScreen(list, { javaScript: false });
  expect(substack.report).toEqual({ Rows: '8', Subscribers: '5' });
  await substack.page
    .getByText(
      'Subscribers: 0 new (confirmed: they opted in on the old site), 5 already here; left out: 1 with emails turned off, 1 deleted, 1 not addresses',
    )
    .waitFor();
  await substack.page
    .getByText('Members: 0 new accounts (they sign in by resetting their password), 6 already here')
    .waitFor();
  const [{ n }] = await db('newsletter_subscribers').count({ n: '*' });
  const substackAgain = await importThroughScreen(list, { javaScript: true });
  expect(substackAgain.report).toEqual({ Rows: '8', Subscribers: '5' });
  expect((await db('newsletter_subscribers').count({ n: '*' }))[0].n).toBe(n);
});
