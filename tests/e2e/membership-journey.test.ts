import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { createTierViaApi } from '../support/members.ts';
import { startSmtpServer, type TestSmtp } from '../support/smtp.ts';
import { deliverSigned, type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in.ts';

/**
 * Issue 33's journey, with and without JavaScript: a reader meets a paywall, signs up from it
 * (the mailed code, then signing in) and comes back to the post, subscribes through Checkout on the stand-in, reads the whole post,
 * opens the billing portal, cancels at the period's end (still reading), and loses access when
 * Stripe ends the subscription.
 */
const SECRET = 'whsec_membership_journey';
const HIDDEN = 'The river map is folded inside the lighthouse.';
let app: TestApp;
let browser: Browser;
let stripe: StripeStandIn;
let smtp: TestSmtp;
let slug: string;

beforeAll(async () => {
  [stripe, smtp] = await Promise.all([startStripeStandIn(), startSmtpServer()]);
  [app, browser] = await Promise.all([
    startTestApp({
      withWorker: true,
      env: {
        SMTP_URL: smtp.url,
        STRIPE_SECRET_KEY: 'sk_test_penstand',
        STRIPE_WEBHOOK_SECRET: SECRET,
        STRIPE_API_URL: stripe.url,
      },
    }),
    launchBrowser(),
  ]);
  const admin = (await signedInSession(app, { role: 'admin' })).headers;
  await createTierViaApi(app, admin, { name: 'Keepers', monthlyPrice: 600, yearlyPrice: 6000 });
  const res = await fetch(`${app.url}/api/posts`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'Where the map is',
      excerpt: 'A question of maps',
      category: 'Travel',
      status: 'published',
      visibility: 'paid',
      content: `Everyone reads this part.\n\n[paywall]\n\n${HIDDEN}`,
    }),
  });
  slug = (await res.json()).post.slug;
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await smtp?.close();
  await stripe?.close();
});

describe.each([true, false])('a reader becomes a paying member (JavaScript %s)', (javaScriptEnabled) => {
  it('pays, reads, cancels at the period’s end and loses access when it ends', async () => {
    const name = `reader${javaScriptEnabled ? 'js' : 'plain'}`;
    const email = `${name}@example.com`;
    const password = 'Lighthouse-map7!';
    const context = await newContext(browser, app.url, { javaScriptEnabled });
    const page = await context.newPage();
    const errors = await watchPage(page);
    const ready = async () => {
      if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated]');
    };

    await page.goto(`/post/${slug}`);
    expect(await page.locator('.prose').textContent()).toContain('Everyone reads this part.');
    expect(await page.content()).not.toContain(HIDDEN);
    await page.locator('.paywall').getByRole('link', { name: 'Sign up free' }).click();
    await ready();
    await page.locator('main').getByLabel('Username').fill(name);
    await page.locator('main').getByLabel('Email').fill(email);
    await page.locator('main').getByLabel('Password', { exact: true }).fill(password);
    await page.locator('main').getByLabel('Confirm password').fill(password);
    await page.locator('main').getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/confirm-email\?username=/);
    await ready();
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    await page.locator('main').getByLabel('Verification code').fill(code);
    await page.locator('main').getByRole('button', { name: 'Confirm email' }).click();
    await page.waitForURL(/\/login\?redirectTo=/);
    await ready();
    await page.locator('main').getByLabel('Email').fill(email);
    await page.locator('main').getByLabel('Password', { exact: true }).fill(password);
    await page.locator('main').getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL(`**/post/${slug}`);

    await page.getByRole('button', { name: '$6.00 a month' }).click();
    await page.waitForURL(`${stripe.url}/pay/**`);
    const session = stripe.complete(new URL(page.url()).pathname.split('/pay/')[1]);
    expect(session).toMatchObject({ mode: 'subscription', amount_total: 600 });
    expect(
      (await deliverSigned(app, stripe.event('checkout.session.completed', session), SECRET)).body.outcome,
    ).toBe('applied');
    await page.goto(session.success_url);
    expect(new URL(page.url()).pathname).toBe(`/post/${slug}`);
    expect(await page.locator('.prose').textContent()).toContain(HIDDEN);

    await page.goto('/account');
    await ready();
    expect(await page.locator('#membership').textContent()).toContain(
      'You are a paying member. Tier: Keepers.',
    );
    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(`${stripe.url}/portal/**`);
    expect(await page.locator('h1').textContent()).toBe('Fake Stripe billing portal');

    // In the portal the reader cancels: Stripe keeps the subscription until the period's end.
    const subscriptionId = String(session.subscription);
    const subscription = stripe.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error('no subscription');
    subscription.cancel_at_period_end = true;
    await deliverSigned(app, stripe.event('customer.subscription.updated', { ...subscription }), SECRET);
    await page.goto('/account');
    expect(await page.locator('#membership').textContent()).toContain('Cancelled: you keep reading until');
    await page.goto(`/post/${slug}`);
    expect(await page.locator('.prose').textContent()).toContain(HIDDEN);

    await deliverSigned(
      app,
      stripe.event('customer.subscription.deleted', { ...stripe.end(subscriptionId) }),
      SECRET,
    );
    await page.goto(`/post/${slug}`);
    expect(await page.content()).not.toContain(HIDDEN);
    expect(await page.locator('.paywall h2').textContent()).toBe('This post is for paying members');
    expect(errors).toEqual([]);
    await context.close();
  });
});
