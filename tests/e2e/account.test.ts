import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../src/identity/messages.ts';
import { executeOrderCommand } from '../../src/orders/changes.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, newContext, setUpBrowserApp, watchPage } from '../support/browser.ts';
import { createProductRow } from '../support/shop.ts';

const stack = setUpBrowserApp();

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

async function ready(page: Page) {
  await page.waitForSelector('html[data-hydrated]');
}

/** Fills the checkout form and places the order. */
async function checkOut(page: Page, email: string) {
  await page.goto('/checkout');
  await page.getByLabel('Full name').fill('Mira Shopper');
  await page.locator('main').getByLabel('Email').fill(email);
  await page.getByLabel('Address', { exact: true }).fill('7 Market Lane');
  await page.getByLabel('City').fill('Bristol');
  await page.getByLabel('ZIP code').fill('BS1 4DJ');
  await page.getByLabel('Country').selectOption('GB');
  await page.getByRole('button', { name: 'Place Order' }).click();
  await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
}

/** The page fits the phone's width: nothing scrolls sideways, the logo is whole. */
async function expectFitsPhone(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const logo = page.locator('.site-header .brand');
  expect(await logo.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
}

describe('the Account page in the browser', () => {
  it('a shopper signs up, buys as that user, sees the order in /account, and deletes the account', {
    timeout: 120_000,
  }, async () => {
    const lamp = await createProductRow(stack.app.services.db, {
      name: 'Harbour Desk Lamp',
      price: 3900,
      stock: 5,
    });
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);

    await page.goto('/signup');
    await ready(page);
    await page.locator('main').getByLabel('Username').fill('mira');
    await page.locator('main').getByLabel('Email').fill('mira@example.com');
    await page.locator('main').getByLabel('Password', { exact: true }).fill('Harbour-lamp7!');
    await page.locator('main').getByLabel('Confirm password').fill('Harbour-lamp7!');
    await page.locator('main').getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/confirm-email\?username=mira/);
    const mail = await stack.smtp.waitFor((m) => m.to.includes('mira@example.com'));
    await page.locator('main').getByLabel('Verification code').fill(codeIn(mail.text));
    await page.locator('main').getByRole('button', { name: 'Confirm email' }).click();
    await page.waitForURL(/\/login$/);
    await ready(page);
    await page.locator('main').getByLabel('Email').fill('mira@example.com');
    await page.locator('main').getByLabel('Password', { exact: true }).fill('Harbour-lamp7!');
    await page.locator('main').getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => page.locator('.user-menu summary').textContent()).toContain('mira@example.com');

    await page.goto(`/product/${lamp.id}`);
    await ready(page);
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await expect.poll(() => page.locator('.cart-badge').textContent()).toBe('1');
    await checkOut(page, 'mira@example.com');

    // The user menu leads to the Account page, where the order is.
    await page.goto('/');
    await ready(page);
    await page.locator('details.user-menu > summary').click();
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.waitForURL('**/account');
    const orders = page.getByRole('region', { name: 'My orders' });
    const order = orders.getByTestId('account-order');
    await expect.poll(() => order.count()).toBe(1);
    expect(await order.textContent()).toContain('1 × Harbour Desk Lamp');
    expect(await order.textContent()).toContain('Awaiting payment');
    const orderId = Number(/#(\d+)/.exec((await order.getByRole('heading').textContent()) ?? '')?.[1]);

    await executeOrderCommand(stack.app.services.db, orderId, { type: 'RecordPayment' });
    await executeOrderCommand(stack.app.services.db, orderId, {
      type: 'ShipOrder',
      trackingNumber: 'HB-42',
      trackingUrl: 'https://track.example/HB-42',
    });
    await page.reload();
    await ready(page);
    expect(await order.textContent()).toContain('Payment received');
    expect(await order.getByRole('link', { name: 'HB-42' }).getAttribute('href')).toBe(
      'https://track.example/HB-42',
    );

    // Profile: a name and an avatar.
    await page.getByLabel('First name').fill('Mira');
    await page.getByLabel('Last name').fill('Quill');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toContain(ACCOUNT_MESSAGES.profileSaved);
    const avatar = await sharp({ create: { width: 120, height: 120, channels: 3, background: '#2a6' } })
      .png()
      .toBuffer();
    await page
      .getByLabel(/New avatar/)
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: avatar });
    await page.getByRole('button', { name: 'Upload avatar' }).click();
    await page.waitForURL(/avatar=saved/);
    await page.getByRole('img', { name: 'Avatar of Mira Quill' }).waitFor();
    await expectAccessible(page);

    await page.getByLabel(/Type your email address/).fill('mira@example.com');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Account deleted' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('link', { name: 'Log in' }).count()).toBe(1);
    await stack.smtp.waitFor(
      (m) => m.to.includes('mira@example.com') && m.subject === 'Your Penstand account is deleted',
    );
    // The order stays for the shop, without the shopper.
    expect(
      await stack.app.services
        .db('orders')
        .where({ id: orderId })
        .first('email', 'first_name', 'total_amount'),
    ).toEqual({ email: '', first_name: 'Deleted', total_amount: 3900 });
    await page.goto('/account');
    await page.waitForURL('**/login?redirectTo=%2Faccount');
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const)
    it(`works without JavaScript on a phone (${colorScheme}): profile, password, deletion`, {
      timeout: 30_000,
    }, async () => {
      const { user, sid } = await signedInSession(stack.app, { firstName: 'Noor', lastName: 'Script' });
      // The phone layout and axe, with JavaScript (axe runs in the page).
      const scripted = await newContext(stack.browser, stack.app.url, { width: 375, colorScheme });
      await addSessionCookie(scripted, stack.app.url, sid);
      const look = await scripted.newPage();
      await look.goto('/account');
      await ready(look);
      await expectFitsPhone(look);
      // Nothing typed yet: the new password's rules are listed, none marked broken.
      const rules = look.locator('#new-password-rules li');
      expect(await rules.count()).toBeGreaterThan(0);
      expect(await look.locator('#new-password-rules .rule-unmet').count()).toBe(0);
      expect(await look.locator('#new-password-rules').textContent()).not.toContain('✗');
      await look.getByLabel('New password', { exact: true }).fill('short');
      expect(await look.locator('#new-password-rules .rule-unmet').count()).toBeGreaterThan(0);
      // The phone header: the user menu is an icon, the name is inside it.
      expect(await look.locator('.user-menu-icon').isVisible()).toBe(true);
      expect((await look.locator('details.user-menu > summary').boundingBox())?.width).toBeLessThanOrEqual(
        40,
      );
      await look.locator('details.user-menu > summary').click();
      expect(await look.locator('.user-menu-email').textContent()).toBe(user.email);
      await expectAccessible(look);
      await scripted.close();

      const context = await newContext(stack.browser, stack.app.url, {
        width: 375,
        colorScheme,
        javaScriptEnabled: false,
      });
      await addSessionCookie(context, stack.app.url, sid);
      const page = await context.newPage();
      await page.goto('/account');
      await expectFitsPhone(page);
      await page.getByLabel('Username').fill(`noor_${colorScheme}`);
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByText(ACCOUNT_MESSAGES.profileSaved).waitFor();
      expect(await page.getByLabel('Username').inputValue()).toBe(`noor_${colorScheme}`);

      await page.getByLabel('Current password').fill(user.password);
      await page.getByLabel('New password', { exact: true }).fill('Quiet-field8!');
      await page.getByLabel('Confirm new password').fill('Quiet-field8!');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText(ACCOUNT_MESSAGES.passwordChanged).waitFor();

      await page.getByLabel(/Type your email address/).fill('not-me@example.com');
      await page.getByRole('button', { name: 'Delete my account' }).click();
      await page.getByText(ACCOUNT_MESSAGES.deleteConfirmMismatch).waitFor();
      await page.getByLabel(/Type your email address/).fill(user.email);
      await page.getByRole('button', { name: 'Delete my account' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('link', { name: 'Log in' }).waitFor();
      expect(await stack.app.services.db('users').where({ id: user.id }).first('id')).toBeUndefined();
      await context.close();
    });
});
