import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/identity/messages.ts';
import { createUser } from '../support/auth.ts';
import { expectAccessible, newContext, setUpBrowserApp, watchPage } from '../support/browser.ts';

const stack = setUpBrowserApp();

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

async function ready(page: Page) {
  await page.waitForSelector('html[data-hydrated]');
}

describe('accounts in the browser', () => {
  it('signs up, confirms with the mailed code, signs in from the header, sees the user menu and signs out', async () => {
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    await page.goto('/signup');
    await ready(page);
    await page.locator('main').getByLabel('Username').fill('jules');
    await page.locator('main').getByLabel('Email').fill('jules@example.com');
    await page.locator('main').getByLabel('Password', { exact: true }).fill('weak');
    expect(await page.locator('.rule-unmet').count()).toBeGreaterThan(0);
    await page.locator('main').getByLabel('Password', { exact: true }).fill('Garden-path7!');
    await page.locator('main').getByLabel('Confirm password').fill('Garden-path7!');
    expect(await page.locator('.rule-unmet').count()).toBe(0);
    await page.locator('main').getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/confirm-email\?username=jules/);

    const mail = await stack.smtp.waitFor((m) => m.to.includes('jules@example.com'));
    await page.locator('main').getByLabel('Verification code').fill(codeIn(mail.text));
    await page.locator('main').getByRole('button', { name: 'Confirm email' }).click();
    await page.waitForURL(/\/login$/);
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Email confirmed');

    await page.goto('/about');
    await ready(page);
    await page.getByRole('link', { name: 'Log in' }).click();
    const modal = page.getByRole('dialog', { name: 'Welcome Back' });
    await modal.getByLabel('Email').fill('jules@example.com');
    await modal.getByLabel('Password', { exact: true }).fill('wrong-password');
    await modal.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect
      .poll(() => modal.getByRole('alert').textContent())
      .toBe('Failed to sign in. Please check your credentials.');
    // Closing clears the fields and the error.
    await modal.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: 'Log in' }).click();
    expect(await modal.getByLabel('Email').inputValue()).toBe('');
    expect(await modal.getByRole('alert').count()).toBe(0);
    await modal.getByLabel('Email').fill('jules@example.com');
    await modal.getByLabel('Password', { exact: true }).fill('Garden-path7!');
    await modal.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Welcome back!' }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/about');
    await expect.poll(() => page.locator('.user-menu summary').textContent()).toContain('jules@example.com');

    await page.locator('.user-menu summary').click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Log in' }).count()).toBe(1);
    // The one failed request is the wrong password's 401.
    expect(problems).toEqual([
      'console: Failed to load resource: the server responded with a status of 401 (Unauthorized)',
    ]);
    await context.close();
  });

  it('moves focus to the field a refused sign-up is about', async () => {
    const taken = await createUser(stack.app, { username: 'taken-name' });
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    await page.goto('/signup');
    await ready(page);
    const main = page.locator('main');
    await main.getByLabel('Username').fill(taken.username ?? '');
    await main.getByLabel('Email').fill('someone-new@example.com');
    await main.getByLabel('Password', { exact: true }).fill('Garden-path7!');
    await main.getByLabel('Confirm password').fill('Garden-path7!');
    await main.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByText(AUTH_MESSAGES.usernameTaken).count()).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('signup-username');
    expect(await page.locator('#signup-username').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#signup-username').getAttribute('aria-describedby')).toBe('signup-status');
    await context.close();
  });

  it('resets a forgotten password and signs in with the new one', async () => {
    await createUser(stack.app, { username: 'nora', email: 'nora@example.com', password: 'Old-secret1!' });
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    await page.goto('/amplify-forgot-password');
    await ready(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Reset password');
    await page.locator('main').getByLabel('Username').fill('nora');
    await page.locator('main').getByRole('button', { name: 'Send reset code' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Enter new password');
    expect(await page.getByText(AUTH_MESSAGES.resetCodeMaybeSent('username')).count()).toBe(1);
    const mail = await stack.smtp.waitFor(
      (m) => m.to.includes('nora@example.com') && /reset/i.test(m.subject),
    );
    // Typed (or pasted) with the space a mail client leaves in front: all six digits must arrive.
    await page
      .locator('main')
      .getByLabel('Verification code')
      .pressSequentially(` ${codeIn(mail.text)}`);
    await page.locator('main').getByLabel('New password', { exact: true }).fill('New-secret2!');
    await page.locator('main').getByLabel('Confirm new password').fill('New-secret3!');
    await expect.poll(() => page.getByText('Passwords do not match').count()).toBe(1);
    await page.locator('main').getByLabel('Confirm new password').fill('New-secret2!');
    await page.locator('main').getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL(/\/amplify-login$/);
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toContain('Password reset successful');
    await page.locator('main').getByLabel('Username').fill('nora');
    await page.locator('main').getByLabel('Password', { exact: true }).fill('New-secret2!');
    await page.locator('main').getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Welcome back!' }).count()).toBe(1);
    await context.close();
  });

  it('shows a signed-in reader 403 at /admin, and takes an admin there from the sign-in page', async () => {
    await createUser(stack.app, {
      username: 'reader',
      email: 'reader@example.com',
      password: 'Reader-pass1!',
    });
    await createUser(stack.app, {
      role: 'admin',
      username: 'boss',
      email: 'boss@example.com',
      password: 'Boss-pass1!',
    });
    for (const [email, password] of [
      ['reader@example.com', 'Reader-pass1!'],
      ['boss@example.com', 'Boss-pass1!'],
    ]) {
      const context = await newContext(stack.browser, stack.app.url);
      const page = await context.newPage();
      const refused = await page.goto('/admin');
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/login?redirectTo=%2Fadmin');
      expect(refused?.status()).toBe(200);
      await ready(page);
      await page.locator('main').getByLabel('Email').fill(email);
      await page.locator('main').getByLabel('Password', { exact: true }).fill(password);
      await page.locator('main').getByRole('button', { name: 'Sign In', exact: true }).click();
      if (email.startsWith('reader')) {
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('403 Forbidden');
        expect((await page.goto('/admin'))?.status()).toBe(403);
      } else {
        await page.waitForURL(/\/admin$/);
        await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBeGreaterThan(0);
        expect(await page.getByRole('heading', { level: 1 }).first().textContent()).not.toBe('403 Forbidden');
      }
      await context.close();
    }
  });

  it('signs in without JavaScript too, and the sign-in pages are accessible in both themes', {
    timeout: 180_000,
  }, async () => {
    await createUser(stack.app, { username: 'plain', email: 'plain@example.com', password: 'Plain-text1!' });
    const noJs = await newContext(stack.browser, stack.app.url, { javaScriptEnabled: false });
    const page = await noJs.newPage();
    await page.goto('/login');
    await page.locator('main').getByLabel('Email').fill('plain@example.com');
    await page.locator('main').getByLabel('Password', { exact: true }).fill('Plain-text1!');
    await page.locator('main').getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForLoadState();
    expect(await page.locator('.user-menu summary').textContent()).toContain('plain@example.com');
    await noJs.close();
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await newContext(stack.browser, stack.app.url, { colorScheme, width: 375 });
      const p = await context.newPage();
      for (const path of [
        '/login',
        '/amplify-login',
        '/signup',
        '/forgot-password',
        '/amplify-confirm-email?username=x',
        '/amplify-demo',
      ]) {
        await p.goto(path);
        await expectAccessible(p);
      }
      await context.close();
    }
  });
});
