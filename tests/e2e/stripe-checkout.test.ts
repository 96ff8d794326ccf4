import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { createProductRow, validCheckout } from '../support/shop.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in.ts';

const WEBHOOK_SECRET = 'whsec_penstand_e2e';
let app: TestApp;
let browser: Browser;
let stripe: StripeStandIn;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  [stripe, smtp] = await Promise.all([startStripeStandIn(), startSmtpServer()]);
  [app, browser] = await Promise.all([
    startTestApp({
      withWorker: true,
      env: {
        SMTP_URL: smtp.url,
        CHECKOUT_RATE_LIMIT: '1000',
        STRIPE_SECRET_KEY: 'sk_test_penstand',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
      },
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await smtp?.close();
  await stripe?.close();
});

/** Stripe tells Penstand the customer paid: the signed event, as its servers send it. */
async function stripeReportsPaid(sessionId: string) {
  const delivery = stripe.event('checkout.session.completed', stripe.complete(sessionId));
  const res = await fetch(`${app.url}/api/payments/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature(WEBHOOK_SECRET) },
    body: delivery.payload,
  });
  expect(res.status).toBe(200);
}

async function payThroughStripe(page: Page, javaScriptEnabled: boolean) {
  const product = await createProductRow(app.services.db, {
    name: `Course ${javaScriptEnabled}`,
    price: 4900,
  });
  await page.goto(`/product/${product.id}`);
  if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated]');
  await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
  // The header counts the line once the cart holds it: an idle network is no sign of that.
  await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
  await page.goto('/checkout');
  if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated]');
  for (const [name, value] of Object.entries(validCheckout)) {
    const field = page.locator(`[name="${name}"]`);
    // The country is chosen from the list of countries.
    if (name === 'country') await field.selectOption(value);
    else await field.fill(value);
  }
  await page.getByRole('button', { name: 'Place Order' }).click();
  // Off to the payment page: Stripe's, here the stand-in's.
  await page.waitForURL(new RegExp(`^${stripe.url}/pay/cs_test_`));
  await page.getByRole('heading', { name: 'Fake Stripe Checkout' }).waitFor();
  const sessionId = page.url().split('/pay/')[1];
  const session = stripe.sessions.get(sessionId);
  expect(session?.line_items_sent).toEqual([{ name: product.name, unit_amount: 4900, quantity: 1 }]);
  const orderId = Number(session?.client_reference_id);

  // Back on the success URL before Stripe's event: the page waits for the real payment state.
  await page.goto(session?.success_url ?? '');
  await page.getByText('Waiting for payment confirmation', { exact: true }).waitFor();
  await stripeReportsPaid(sessionId);
  await page.reload();
  await page.getByTestId('payment-state').getByText('Payment received', { exact: true }).waitFor();
  await smtp.waitFor((m) => m.subject === `Payment received for order #${orderId}`);
  return orderId;
}

describe('paying by card through Stripe Checkout', () => {
  it('takes a shopper from the cart to Stripe’s page and back to “Payment received”, mailed once', {
    timeout: 60_000,
  }, async () => {
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    const orderId = await payThroughStripe(page, true);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(smtp.messages.filter((m) => m.subject === `Payment received for order #${orderId}`)).toHaveLength(
      1,
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works without JavaScript: the checkout form is answered with a redirect to the payment page', {
    timeout: 60_000,
  }, async () => {
    const context = await newContext(browser, app.url, { javaScriptEnabled: false });
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') blocked.push(msg.text());
    });
    await payThroughStripe(page, false);
    // The Content-Security-Policy's form-action lets the form go on to the payment page.
    expect(blocked.filter((m) => m.includes('Content Security Policy'))).toEqual([]);
    await context.close();
  });
});
