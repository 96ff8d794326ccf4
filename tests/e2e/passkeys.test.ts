import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSKEY_MESSAGES } from '../../src/identity/passkey-messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
/** WebAuthn wants a host name for its relying party (an IP address is not one): localhost. */
let origin: string;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  origin = app.url.replace('127.0.0.1', 'localhost');
  // What PUBLIC_URL sets: the RP ID and the origin a passkey's answer must name.
  app.services.publicUrl = origin;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Chromium's virtual authenticator: a platform passkey store that verifies its user without a prompt. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

async function signOut(page: Page) {
  await page.locator('details.user-menu > summary').click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.locator('details.user-menu').waitFor({ state: 'detached' });
}

it('adds a passkey on the Account page, signs in with it on /login with no password, and removes it', {
  timeout: 90_000,
}, async () => {
  const user = await createUser(app);
  const page = await (await newContext(browser, origin)).newPage();
  const problems = await watchPage(page);
  const authenticator = await addVirtualAuthenticator(page);

  await page.goto('/login');
  await page.waitForSelector('html[data-hydrated]');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(`${origin}/`);

  await page.goto('/account');
  await page.waitForSelector('html[data-hydrated]');
  await page.getByText('No passkeys yet.').waitFor();
  await page.getByLabel('Name of the new passkey').fill('This Chromium');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByText(PASSKEY_MESSAGES.added).waitFor();
  const list = page.getByTestId('passkey-list');
  await list.locator('strong', { hasText: 'This Chromium' }).waitFor();
  expect(await list.textContent()).toContain('not used yet');
  const stored = await authenticator.credentials();
  expect(stored).toHaveLength(1);
  expect(stored[0].isResidentCredential).toBe(true);
  expect(stored[0].rpId).toBe('localhost');
  await expectAccessible(page);
  await signOut(page);

  // /login: the passkey button alone, nothing typed.
  await page.goto('/login');
  await page.waitForSelector('html[data-hydrated]');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForURL(`${origin}/`);
  await page.locator('details.user-menu').waitFor();
  await signOut(page);

  // The header's modal has the button too.
  await page.goto('/shop');
  await page.waitForSelector('html[data-hydrated]');
  await page.locator('header').getByRole('link', { name: 'Log in' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.locator('details.user-menu').waitFor();
  expect(page.url()).toBe(`${origin}/shop`);
  const signIns = await app.services.db('audit_log').where({ actor_id: user.id, action: 'sign-in' });
  expect(signIns.length).toBe(3);

  await page.goto('/account');
  await page.waitForSelector('html[data-hydrated]');
  expect(await list.textContent()).toContain('last used');
  await page.getByRole('button', { name: 'Remove This Chromium' }).click();
  await page.getByText(PASSKEY_MESSAGES.removed).waitFor();
  await page.getByText('No passkeys yet.').waitFor();
  await signOut(page);

  // The browser still holds the passkey; the site no longer knows it.
  await page.goto('/login');
  await page.waitForSelector('html[data-hydrated]');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByText(PASSKEY_MESSAGES.unknown).waitFor();
  expect(await page.locator('details.user-menu').count()).toBe(0);
  // The refused sign-in's 400 is the only console noise.
  expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
});

it('shows no passkey button without JavaScript', async () => {
  const page = await (await newContext(browser, origin, { javaScriptEnabled: false })).newPage();
  await page.goto('/login');
  expect(await page.getByRole('button', { name: 'Sign In', exact: true }).count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
});
