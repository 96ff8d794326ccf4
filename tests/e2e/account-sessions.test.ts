import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/auth.ts';
import { expectAccessible, newContext, setUpBrowserApp, watchPage } from '../support/browser.ts';

const stack = setUpBrowserApp();

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

/** Signs in through the /login form, on its way to the account page. */
async function signIn(page: Page, user: TestUser, password: string) {
  await page.goto('/account');
  await page.waitForURL('**/login?redirectTo=%2Faccount');
  await page.waitForSelector('html[data-hydrated]');
  await page.locator('main').getByLabel('Email').fill(user.email);
  await page.locator('main').getByLabel('Password', { exact: true }).fill(password);
  await page.locator('main').getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
}

/** The next request is anonymous: the account page sends it to sign in. */
async function expectSignedOut(page: Page) {
  await page.goto('/account');
  await page.waitForURL('**/login?redirectTo=%2Faccount');
}

it('signs one browser out from another with “Sign out everywhere else”, and a password reset signs out both', {
  timeout: 90_000,
}, async () => {
  const user = await createUser(stack.app);
  const contexts = await Promise.all([
    newContext(stack.browser, stack.app.url),
    newContext(stack.browser, stack.app.url, { width: 390 }),
  ]);
  const [here, there] = await Promise.all(contexts.map((c) => c.newPage()));
  const problems = await watchPage(here);
  await signIn(there, user, user.password);
  await signIn(here, user, user.password);

  await here.goto('/');
  await here.waitForSelector('html[data-hydrated]');
  await here.locator('details.user-menu > summary').click();
  await here.getByRole('link', { name: 'Your account' }).click();
  await here.waitForURL('**/account');
  const sessions = here.getByRole('region', { name: 'Where you are signed in' });
  await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
  expect(await sessions.getByText('This device').count()).toBe(1);
  await expectAccessible(here);
  await here.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await here.getByText('Signed out of 1 other session.').waitFor();
  await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
  await expectSignedOut(there);

  // Signed in on both again, the password is reset from a third browser: neither stays signed in.
  await signIn(there, user, user.password);
  await here.reload();
  await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
  const elsewhere = await newContext(stack.browser, stack.app.url);
  const reset = await elsewhere.newPage();
  await reset.goto('/forgot-password');
  await reset.waitForSelector('html[data-hydrated]');
  await reset.locator('main').getByLabel('Email').fill(user.email);
  await reset.locator('main').getByRole('button', { name: 'Send reset code' }).click();
  await reset.getByRole('heading', { name: 'Enter new password' }).waitFor();
  const mail = await stack.smtp.waitFor((m) => m.to.includes(user.email) && /reset/i.test(m.subject));
  await reset.locator('main').getByLabel('Verification code').fill(codeIn(mail.text));
  await reset.locator('main').getByLabel('New password', { exact: true }).fill('New-secret2!');
  await reset.locator('main').getByLabel('Confirm new password').fill('New-secret2!');
  await reset.locator('main').getByRole('button', { name: 'Reset password' }).click();
  await reset.waitForURL(/\/login$/);
  await expectSignedOut(here);
  await expectSignedOut(there);
  // The new password works where the old sessions ended.
  await signIn(there, user, 'New-secret2!');

  expect(problems).toEqual([]);
  for (const context of [...contexts, elsewhere]) await context.close();
});
