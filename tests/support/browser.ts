import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestApp, type TestApp } from './app.ts';
import { startSmtpServer, type TestSmtp } from './smtp.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with nothing reaching beyond loopback. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

export type ContextOptions = { colorScheme?: 'light' | 'dark'; width?: number; javaScriptEnabled?: boolean };

export async function newContext(
  browser: Browser,
  baseURL: string,
  opts: ContextOptions = {},
): Promise<BrowserContext> {
  const width = opts.width ?? 1280;
  return browser.newContext({
    baseURL,
    colorScheme: opts.colorScheme ?? 'light',
    viewport: { width, height: width < 600 ? 800 : 900 },
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
  });
}

/**
 * Collects console errors and failed requests of a page; tests assert it stays empty.
 * Requests anywhere but loopback are aborted and recorded.
 */
export async function watchPage(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  await page.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])/, (route) => {
    problems.push(`external request: ${route.request().url()}`);
    return route.abort();
  });
  return problems;
}

/** No serious or critical axe violations on the current page. */
export async function expectAccessible(
  page: Page,
  impacts: readonly string[] = ['serious', 'critical'],
): Promise<void> {
  // Legacy mode runs axe in the page itself (same-origin frames): the default opens a blank page per
  // scan to merge frame results, about half of a scan's time. Violations are all we read.
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  const bad = results.violations.filter((v) => impacts.includes(v.impact ?? ''));
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual(
    [],
  );
}

export type BrowserApp = { app: TestApp; browser: Browser; smtp: TestSmtp };

/**
 * What most journeys need: a browser, and the app with its worker mailing to an SMTP server in
 * process (sign-up codes, order mails). Started before the file's tests, stopped after them.
 */
export function setUpBrowserApp(env: Record<string, string> = {}): BrowserApp {
  const stack = {} as BrowserApp;
  beforeAll(async () => {
    stack.smtp = await startSmtpServer();
    [stack.app, stack.browser] = await Promise.all([
      startTestApp({ withWorker: true, env: { SMTP_URL: stack.smtp.url, ...env } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await stack.browser?.close();
    await stack.app?.close();
    await stack.smtp?.close();
  });
  return stack;
}
