import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FORM_HAS_ERRORS } from '../../src/app/components/FormErrors.tsx';
import { createPost } from '../../src/blog/post-editor.ts';
import { postInputSchema } from '../../src/blog/post-schema.ts';
import { DISCOUNT_MESSAGES, discountSchema } from '../../src/shop/discount-schema.ts';
import { createDiscount } from '../../src/shop/discounts.ts';
import { SHOP_MESSAGES } from '../../src/shop/messages.ts';
import { newContext, setUpBrowserApp, watchPage } from '../support/browser.ts';
import { createProductRow, validCheckout } from '../support/shop.ts';

const stack = setUpBrowserApp();

async function hydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await page.waitForSelector('html[data-hydrated]');
  return response;
}

/**
 * React (its development build) reports a hydration mismatch for any element rendered with the
 * response's CSP nonce that React also renders in the browser without it: the browser hides the
 * nonce from the DOM. Only scripts (and their preloads, rendered with it in the browser too) need
 * it; stylesheet links must not carry it.
 */
async function expectNoNonceOnLinks(response: Response | null) {
  const nonce = /'nonce-([^']+)'/.exec(response?.headers()['content-security-policy'] ?? '')?.[1];
  expect(nonce).toBeTruthy();
  const links = (await response?.text())?.match(/<link [^>]*rel="stylesheet"[^>]*>/g) ?? [];
  expect(links.length).toBeGreaterThan(0);
  expect(links.filter((link) => link.includes(`nonce="${nonce}"`))).toEqual([]);
}

describe('checkout with JavaScript', () => {
  it('says why each code is refused, checks only the code on Apply, and confirms the order once', {
    timeout: 60_000,
  }, async () => {
    const { db } = stack.app.services;
    const product = await createProductRow(db, { name: 'Reading Lamp', price: 2000, stock: 5 });
    const day = 24 * 3600_000;
    await createDiscount(
      db,
      discountSchema.parse({
        code: 'OLD',
        type: 'percent',
        value: 10,
        startsAt: new Date(Date.now() - 2 * day).toISOString(),
        endsAt: new Date(Date.now() - day).toISOString(),
      }),
    );
    await createDiscount(
      db,
      discountSchema.parse({ code: 'BIG', type: 'percent', value: 10, minSubtotal: 100_000 }),
    );
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);

    // An empty cart: the empty state alone, no form to fill in.
    await hydrated(page, '/checkout');
    await page.getByRole('heading', { name: SHOP_MESSAGES.cartEmptyCheckoutTitle }).waitFor();
    expect(await page.getByRole('button', { name: 'Place Order' }).count()).toBe(0);

    await hydrated(page, `/product/${product.id}`);
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await page.getByText(SHOP_MESSAGES.addedOne, { exact: true }).waitFor();

    await expectNoNonceOnLinks(await hydrated(page, '/checkout'));
    const code = page.getByLabel('Discount code');
    const invalid = page.locator('[aria-invalid="true"]');
    for (const [typed, reason] of [
      ['NOPE', DISCOUNT_MESSAGES.unknown],
      ['OLD', DISCOUNT_MESSAGES.expired],
      ['BIG', DISCOUNT_MESSAGES.minSubtotal('$1,000.00')],
      ['NOPE', DISCOUNT_MESSAGES.unknown],
    ]) {
      await code.fill(typed);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.locator('#checkout-discountCode-error').getByText(reason, { exact: true }).waitFor();
      // Only the code is marked: the empty address fields were not judged.
      await expect
        .poll(() => invalid.evaluateAll((els) => els.map((e) => e.id)))
        .toEqual(['checkout-discountCode']);
      expect(await page.getByText(FORM_HAS_ERRORS).count()).toBe(0);
    }

    await code.fill('');
    await page.getByLabel('Full name').fill(validCheckout.customerName);
    await page.locator('main').getByLabel('Email').fill('lamp@example.com');
    await page.getByLabel('Address', { exact: true }).fill(validCheckout.address);
    await page.getByLabel('City').fill(validCheckout.city);
    await page.getByLabel('ZIP code').fill(validCheckout.zipCode);
    await page.getByLabel('Country').selectOption(validCheckout.country);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: SHOP_MESSAGES.orderConfirmed }).waitFor();
    const main = page.locator('main');
    expect(await main.locator('h1, h2').allTextContents()).toEqual([
      SHOP_MESSAGES.orderConfirmed,
      'How to pay',
    ]);
    expect(await main.textContent()).not.toMatch(
      /confirmed\.|Placed Successfully|only logged|email delivery/,
    );

    // The order's own page, loaded afresh: hydrated without a mismatch.
    const orderPath = await page.getByRole('link', { name: 'View your order' }).getAttribute('href');
    await expectNoNonceOnLinks(await hydrated(page, orderPath ?? ''));
    await page.getByRole('heading', { name: /^Order #\d+$/ }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the home carousel without JavaScript', () => {
  it('shows no buttons that could not work, and its slides scroll sideways and link to the posts', async () => {
    const { db, queues } = stack.app.services;
    const posts = [];
    for (const title of ['Carousel One', 'Carousel Two', 'Carousel Three'])
      posts.push(
        await createPost(
          db,
          queues,
          postInputSchema.parse({
            title,
            content: 'Words.',
            excerpt: 'An excerpt',
            category: 'Life',
            status: 'published',
          }),
          null,
        ),
      );
    // The carousel shows featured posts only; the newest of them leads above it.
    await db('posts')
      .whereIn(
        'id',
        posts.map((post) => post.id),
      )
      .update({ featured: true });
    stack.app.services.pageCache.invalidate();
    const context = await newContext(stack.browser, stack.app.url, { javaScriptEnabled: false });
    const page = await context.newPage();
    const problems = await watchPage(page);
    await page.goto('/');
    const carousel = page.getByRole('region', { name: 'Featured posts' });
    await carousel.waitFor();
    expect(await carousel.getByRole('button').count()).toBe(0);
    expect(await carousel.locator('.carousel-title').allTextContents()).toEqual([
      'Carousel Two',
      'Carousel One',
    ]);
    const track = carousel.locator('.carousel-track');
    expect(await track.evaluate((row) => row.scrollWidth > row.clientWidth)).toBe(true);
    await track.evaluate((row) => row.scrollTo({ left: row.clientWidth, behavior: 'instant' }));
    await carousel.getByRole('link', { name: posts[0].title }).click();
    await page.waitForURL(`**/post/${posts[0].slug}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
