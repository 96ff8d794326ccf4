import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../support/auth.ts';
import { launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** The authenticator app: the code of the time step `offset` steps from now. */
const codeFor = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.waitForSelector('html[data-hydrated]');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function signOut(page: Page) {
  await page.locator('details.user-menu > summary').click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.locator('details.user-menu').waitFor({ state: 'detached' });
}

it('turns on TOTP, then asks for a code after the password: a used code is refused, a recovery code works once', {
  timeout: 90_000,
}, async () => {
  const user = await createUser(app);
  const page = await (await newContext(browser, app.url)).newPage();
  const problems = await watchPage(page);
  await signInWithPassword(page, user.email, user.password);
  await page.waitForURL(`${app.url}/`);

  await page.goto('/account');
  await page.waitForSelector('html[data-hydrated]');
  await page.getByRole('button', { name: 'Set up two-factor' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await page.getByRole('img', { name: 'QR code of the authenticator key' }).count()).toBe(1);
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  await page.getByText('That code is not right, or it was already used. Try the next one.').first().waitFor();
  await page.getByLabel('Code from the app').fill(codeFor(secret));
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  const recovery = page.getByTestId('recovery-codes').locator('code');
  await expect.poll(() => recovery.count()).toBe(10);
  const [firstRecovery] = await recovery.allTextContents();
  await signOut(page);

  // Password, then the next code of the app.
  await signInWithPassword(page, user.email, user.password);
  await page.getByLabel('Authentication code').waitFor();
  const next = codeFor(secret, 1);
  await page.getByLabel('Authentication code').fill(next);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(`${app.url}/`);
  await page.locator('details.user-menu').waitFor();
  await signOut(page);

  // The same code again is refused; a recovery code signs in, once.
  await signInWithPassword(page, user.email, user.password);
  await page.getByLabel('Authentication code').fill(next);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByText('That code is not right, or it was already used. Try the next one.').waitFor();
  await page.getByLabel('Authentication code').fill(firstRecovery);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(`${app.url}/`);
  await signOut(page);
  await signInWithPassword(page, user.email, user.password);
  await page.getByLabel('Authentication code').fill(firstRecovery);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByText('That code is not right, or it was already used. Try the next one.').waitFor();
  expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
});

it("'Require two-factor for admins' sends an admin without it to set it up before the admin opens", {
  timeout: 90_000,
}, async () => {
  const admin = await createUser(app, { role: 'admin' });
  const page = await (await newContext(browser, app.url)).newPage();
  const problems = await watchPage(page);
  await signInWithPassword(page, admin.email, admin.password);
  await page.waitForURL(`${app.url}/admin`);

  await page.goto('/admin?tab=settings');
  await page.waitForSelector('html[data-hydrated]');
  await page.getByLabel('Require two-factor for admins').check();
  await page.getByRole('button', { name: 'Save Settings' }).click();
  // From now on this admin has no second factor: the admin closes at once.
  await page.waitForURL(`${app.url}/account`);
  await page.goto('/admin?tab=posts');
  await page.waitForURL(`${app.url}/account`);
  await signOut(page);

  // The next sign-in lands on the Account page's setup, not the admin.
  await signInWithPassword(page, admin.email, admin.password);
  await page.waitForURL(`${app.url}/account`);
  await page.waitForSelector('html[data-hydrated]');
  await page.getByText('‘Require two-factor for admins’ is on').waitFor();
  await page.getByRole('button', { name: 'Set up two-factor' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  await page.getByLabel('Code from the app').fill(codeFor(secret));
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  await expect.poll(() => page.getByTestId('recovery-codes').locator('code').count()).toBe(10);
  await page.getByRole('link', { name: 'Continue to the admin' }).click();
  await page.waitForURL(`${app.url}/admin`);
  await page.getByRole('tab', { name: 'Dashboard' }).waitFor();
  await signOut(page);

  // With two-factor on, the code step leads to the admin.
  await signInWithPassword(page, admin.email, admin.password);
  await page.getByLabel('Authentication code').fill(codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(`${app.url}/admin`);
  expect(
    (await app.services.db('blog_settings').where({ id: 1 }).first('require_admin_two_factor'))
      ?.require_admin_two_factor,
  ).toBe(true);
  expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
});
