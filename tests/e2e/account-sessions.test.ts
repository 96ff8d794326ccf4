import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSession } from '../../src/identity/sessions.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, createUser } from '../support/auth.ts';
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

it('signs one browser out from another with “Sign out everywhere else”', { timeout: 60_000 }, async () => {
  const user = await createUser(app);
  const contexts = await Promise.all([
    newContext(browser, app.url),
    newContext(browser, app.url, { width: 390 }),
  ]);
  for (const context of contexts)
    await addSessionCookie(
      context,
      app.url,
      await createSession(app.services.db, user.id, {}, undefined, 'Chromium'),
    );
  const [here, there] = await Promise.all(contexts.map((c) => c.newPage()));
  const problems = await watchPage(here);

  await there.goto('/account');
  await there.getByRole('heading', { name: 'Where you are signed in' }).waitFor();

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

  // The other browser's next request is anonymous: the account page sends it to sign in.
  await there.reload();
  await there.waitForURL('**/login?redirectTo=%2Faccount');
  expect(problems).toEqual([]);
  for (const context of contexts) await context.close();
});
