import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FORM_HAS_ERRORS } from '../../src/app/components/FormErrors.tsx';
import { ADDRESS_MESSAGES } from '../../src/shop/checkout-schema.ts';
import { SHOP_MESSAGES } from '../../src/shop/messages.ts';
import { stockOf } from '../../src/shop/stock.ts';
import { expectAccessible, newContext, setUpBrowserApp, watchPage } from '../support/browser.ts';
import { createProductRow } from '../support/shop.ts';

const stack = setUpBrowserApp({ CHECKOUT_RATE_LIMIT: '1000' });

async function hydrated(page: Page, path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated]');
}

const text = (page: Page, value: string) => page.getByText(value, { exact: true });

describe('a guest shopping journey', () => {
  it('adds, hits the stock limit, removes, checks out with every validation message and gets the mail', {
    timeout: 60_000,
  }, async () => {
    const { db } = stack.app.services;
    const notebook = await createProductRow(db, {
      name: 'Pocket Notebook',
      stock: 3,
      price: 2500,
      category: 'Merchandise',
    });
    const pen = await createProductRow(db, {
      name: 'Fountain Pen',
      stock: null,
      price: 1000,
      category: 'Physical',
    });
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);

    await hydrated(page, `/product/${notebook.id}`);
    await expect.poll(() => text(page, '3 in stock').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await text(page, 'Item successfully added to your cart').waitFor();
    expect(await text(page, 'Added to cart').isVisible()).toBe(true);

    await hydrated(page, `/product/${pen.id}`);
    await page.getByRole('button', { name: 'Increase quantity' }).click();
    expect(await page.getByLabel('Quantity', { exact: true }).inputValue()).toBe('2');
    expect(await page.locator('.line-total').textContent()).toBe('Total: $20.00');
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await text(page, '2 item(s) added to your cart').waitFor();
    await page.getByRole('link', { name: 'Cart, 3 items' }).waitFor();

    await hydrated(page, '/cart');
    const quantity = page.getByLabel('Quantity of Pocket Notebook', { exact: true });
    const plus = page.getByRole('button', { name: 'Increase quantity of Pocket Notebook' });
    await plus.click();
    await expect.poll(() => quantity.inputValue()).toBe('2');
    await plus.click();
    await expect.poll(() => quantity.inputValue()).toBe('3');
    await expect.poll(() => plus.isDisabled()).toBe(true);
    await quantity.fill('4');
    await quantity.press('Enter');
    await text(page, 'Enter a quantity between 1 and 3').waitFor();

    await page
      .locator('li.cart-line', { hasText: 'Fountain Pen' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await text(page, 'Item removed').waitFor();
    await expect.poll(() => page.locator('li.cart-line').count()).toBe(1);
    expect(await text(page, 'Items (3)').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await page.getByRole('heading', { name: 'Shipping Information' }).waitFor();

    const fields = {
      'Full name': 'A',
      Email: 'not-an-email',
      Address: '1',
      City: 'X',
      'ZIP code': '1',
    };
    for (const [label, value] of Object.entries(fields))
      await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Place Order' }).click();
    for (const message of [
      'Name must be at least 2 characters',
      'Please enter a valid email',
      'Address must be at least 5 characters',
      'City must be at least 2 characters',
    ]) {
      await text(page, message).waitFor();
    }
    // The select's empty option says it too: the error is the one beside the field.
    await expect
      .poll(() => page.locator('#checkout-country-error').textContent())
      .toBe(ADDRESS_MESSAGES.country);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('checkout-customerName');
    await text(page, FORM_HAS_ERRORS).waitFor();
    // Re-validated on change once submitted.
    await page.getByLabel('Full name').fill('Grace Brewster Hopper');
    await expect.poll(() => text(page, 'Name must be at least 2 characters').count()).toBe(0);
    await page.locator('main').getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Address', { exact: true }).fill('1 Compiler Way');
    await page.getByLabel('City').fill('Arlington');
    await page.getByLabel('ZIP code').fill('22201');
    await page.getByLabel('Country').selectOption('US');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    const order = await db('orders').orderBy('id', 'desc').first();
    expect(order).toMatchObject({
      first_name: 'Grace Brewster',
      last_name: 'Hopper',
      postal_code: '22201',
      total_amount: 7500,
    });
    // It leads with the order number and the next step, not a raw status.
    expect(await page.locator('.confirmation').textContent()).toMatch(
      new RegExp(
        `^Order #${order.id}Order Confirmed!Next: we contact you about the payment\\. A confirmation is on its way to grace@example\\.com\\.`,
      ),
    );
    expect(await page.locator('.confirmation').textContent()).not.toContain('pending');
    const details = page.locator('.confirmation-details');
    expect(await details.getByText('$75.00', { exact: true }).isVisible()).toBe(true);

    const mail = await stack.smtp.waitFor((m) => m.subject === `Order #${order.id} confirmed`);
    expect(mail.to).toEqual(['grace@example.com']);
    expect(mail.text).toContain('3 × Pocket Notebook');
    expect(mail.text).toContain('Total: $75.00');
    expect(mail.text).toContain('1 Compiler Way');
    expect(await stockOf(db, notebook.id)).toBe(0);

    await page.getByRole('link', { name: 'Place Another Order' }).click();
    await text(page, 'Please add items to your cart before checkout.').waitFor();
    expect(await page.getByRole('button', { name: 'Place Order' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Cart, 0 items' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('refuses a typed quantity over the stock, says so, and drops the message at the next action', async () => {
    const { db } = stack.app.services;
    const mug = await createProductRow(db, { name: 'Stock Mug', stock: 3, price: 900 });
    const pen = await createProductRow(db, { name: 'Plain Pen', stock: null, price: 300 });
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    for (const product of [mug, pen]) {
      await hydrated(page, `/product/${product.id}`);
      await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
      await page.getByText('Item successfully added to your cart', { exact: true }).waitFor();
    }
    await hydrated(page, '/cart');
    const quantity = page.getByLabel('Quantity of Stock Mug', { exact: true });
    await quantity.click();
    await quantity.press('Control+A');
    await quantity.pressSequentially('99');
    await quantity.press('Enter');
    const refusal = page.getByText('Enter a quantity between 1 and 3', { exact: true });
    await refusal.waitFor();
    expect(await quantity.getAttribute('aria-invalid')).toBe('true');
    expect(Number((await db('cart_items').where({ product_id: mug.id }).first()).quantity)).toBe(1);

    await page.getByRole('button', { name: 'Increase quantity of Plain Pen' }).click();
    await expect.poll(() => refusal.count()).toBe(0);
    await expect.poll(() => quantity.inputValue()).toBe('1');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('clears the cart through a keyboard-operable confirmation dialog', async () => {
    const product = await createProductRow(stack.app.services.db, { name: 'Desk Plant', stock: 8 });
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    await hydrated(page, `/product/${product.id}`);
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await text(page, 'Item successfully added to your cart').waitFor();
    await hydrated(page, '/cart');
    expect(await text(page, 'Only 8 left in stock').isVisible()).toBe(true);
    const clear = page.getByRole('button', { name: 'Clear Cart' }).first();
    await clear.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.getByText('Are you sure you want to clear your cart?').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await clear.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    // Focus starts inside the modal, on its first button: the confirmation.
    await page.keyboard.press('Enter');
    await text(page, 'Cart cleared').waitFor();
    await text(page, 'Your cart is empty').waitFor();
    expect(await text(page, 'Add some products to your cart to get started.').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works without JavaScript: add, confirm-step clear, and checkout', async () => {
    const product = await createProductRow(stack.app.services.db, {
      name: 'Linen Tote',
      stock: 4,
      price: 1800,
    });
    const context = await newContext(stack.browser, stack.app.url, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/product/${product.id}`);
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await text(page, 'Item successfully added to your cart').waitFor();
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Clear Cart' }).first().click();
    await page.waitForURL(/confirm=clear/);
    await page.getByRole('alertdialog').getByText('Are you sure you want to clear your cart?').waitFor();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(/\/cart$/);
    await page.getByRole('button', { name: 'Increase quantity of Linen Tote' }).click();
    await page.waitForLoadState();
    expect(await page.getByLabel('Quantity of Linen Tote', { exact: true }).inputValue()).toBe('2');
    await page.goto('/checkout');
    await page.getByLabel('Full name').fill('Lin');
    await page.locator('main').getByLabel('Email').fill('lin@example');
    await page.getByLabel('Address', { exact: true }).fill('5 Loom Road');
    await page.getByLabel('City').fill('Leeds');
    await page.getByLabel('ZIP code').fill('LS1 4AP');
    await page.getByLabel('Country').selectOption('GB');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await text(page, 'Please enter a valid email').waitFor();
    await page.locator('main').getByLabel('Email').fill('lin@example.com');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    expect(await page.locator('.confirmation-details').getByText('$36.00', { exact: true }).count()).toBe(1);
    await context.close();
  });

  it('adds to the cart from the grid without opening the product, with and without JavaScript', async () => {
    const product = await createProductRow(stack.app.services.db, {
      name: 'Grid Lamp',
      stock: 2,
      price: 4200,
    });
    const plain = await newContext(stack.browser, stack.app.url, { javaScriptEnabled: false });
    const page = await plain.newPage();
    await page.goto('/shop?search=Grid+Lamp');
    const card = page.locator(`#product-${product.id}`);
    expect(await card.getByText('Only 2 left in stock!').isVisible()).toBe(true);
    await card.getByRole('button', { name: 'Add to Cart: Grid Lamp' }).click();
    await page.waitForURL(`**/shop?search=Grid+Lamp#product-${product.id}`);
    await text(page, SHOP_MESSAGES.addedOne).waitFor();
    await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
    expect(await page.locator('.cart-badge').textContent()).toBe('1');
    await plain.close();

    const scripted = await newContext(stack.browser, stack.app.url);
    const live = await scripted.newPage();
    const problems = await watchPage(live);
    await hydrated(live, '/shop?search=Grid+Lamp');
    await live
      .locator(`#product-${product.id}`)
      .getByRole('button', { name: 'Add to Cart: Grid Lamp' })
      .click();
    await live.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
    await text(live, SHOP_MESSAGES.addedOne).waitFor();
    expect(new URL(live.url()).pathname).toBe('/shop');
    expect(problems).toEqual([]);
    await scripted.close();
  });
});

describe('shop pages', () => {
  it('paginates, filters by category and search in the URL, and shows the empty state', async () => {
    const { db } = stack.app.services;
    for (let i = 0; i < 14; i++)
      await createProductRow(db, { name: `Course volume ${i}`, category: 'Courses' });
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    await hydrated(page, '/shop?category=Courses');
    await text(page, 'Showing 1-12 of 14 products').waitFor();
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/page=2/);
    await text(page, 'Showing 13-14 of 14 products').waitFor();
    await page.getByLabel('Category').selectOption('Books');
    await page.waitForURL(
      (url) => url.searchParams.get('category') === 'Books' && !url.searchParams.has('page'),
    );
    await page.getByLabel('Search products').fill('no such thing anywhere');
    await page.getByRole('button', { name: 'Search' }).click();
    await text(page, 'No products found').waitFor();
    expect(await text(page, 'Try adjusting your search or filter criteria.').isVisible()).toBe(true);
    const redirect = await fetch(`${stack.app.url}/shop-fixed`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/shop');
    const missing = await page.goto('/product/not-a-number');
    expect(missing?.status()).toBe(404);
    await text(page, 'Product not found').waitFor();
    await context.close();
  });

  it("fetches a product page's image first, the shop grid's first row at once and the rest lazily", async () => {
    const product = await createProductRow(stack.app.services.db, {
      name: 'Framed Botanical Print',
      image: '/demo/book.svg',
    });
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    await hydrated(page, `/product/${product.id}`);
    const main = page.getByRole('img', { name: 'Framed Botanical Print' });
    expect(await main.getAttribute('fetchpriority')).toBe('high');
    expect(await main.getAttribute('loading')).toBe('eager');
    for (let n = 2; n <= 5; n++)
      await createProductRow(stack.app.services.db, {
        name: `Framed Botanical Print ${n}`,
        image: '/demo/book.svg',
      });
    await hydrated(page, '/shop?search=Framed+Botanical');
    const cards = page.locator('.product-grid img');
    await expect.poll(() => cards.count()).toBe(5);
    expect(await cards.evaluateAll((images) => images.map((i) => i.getAttribute('loading')))).toEqual([
      'eager',
      'eager',
      'eager',
      'eager',
      'lazy',
    ]);
    expect(await page.locator('.product-grid img[fetchpriority]').count()).toBe(0);
    await context.close();
  });

  it('builds the checkout schema in the browser without a CSP violation (zod probes for eval)', async () => {
    const context = await newContext(stack.browser, stack.app.url);
    await context.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { cspViolations: seen });
      document.addEventListener('securitypolicyviolation', (event) => seen.push(event.violatedDirective));
    });
    const page = await context.newPage();
    await hydrated(page, '/checkout');
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([]);
    await context.close();
  });

  it('shows out-of-stock products as not for sale and hides inactive ones', async () => {
    const { db } = stack.app.services;
    const sold = await createProductRow(db, { name: 'Sold Out Print', stock: 0, featured: true });
    const inactive = await createProductRow(db, { name: 'Retired Mug', status: 'inactive' });
    const context = await newContext(stack.browser, stack.app.url);
    const page = await context.newPage();
    await hydrated(page, `/product/${sold.id}`);
    expect(await text(page, 'This product is currently out of stock.').isVisible()).toBe(true);
    expect(await text(page, 'Out of stock').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add to Cart', exact: true }).isDisabled()).toBe(true);
    // Nothing to choose a quantity of: no stepper and no total.
    expect(await page.getByLabel('Quantity', { exact: true }).count()).toBe(0);
    expect(await page.locator('.line-total').count()).toBe(0);
    expect((await page.goto(`/product/${inactive.id}`))?.status()).toBe(404);
    await hydrated(page, '/');
    const featured = page.getByRole('region', { name: 'Featured Products' });
    await featured.getByRole('link', { name: 'View Details: Sold Out Print' }).click();
    await page.waitForURL(`**/product/${sold.id}`);
    await context.close();
  });

  it.each([
    ['light', 1280],
    ['light', 375],
    ['dark', 375],
  ] as const)(
    'has no serious accessibility violations (%s, %i px) and no horizontal overflow',
    { timeout: 240_000 },
    async (colorScheme, width) => {
      const { db } = stack.app.services;
      const product = await createProductRow(db, {
        name: `Accessible Planner ${colorScheme} ${width}`,
        stock: 6,
        featured: true,
      });
      const context = await newContext(stack.browser, stack.app.url, { colorScheme, width });
      const page = await context.newPage();
      const pages = [
        '/',
        '/shop',
        `/product/${product.id}`,
        '/product/999999',
        '/cart',
        '/checkout',
        '/orders/lookup',
      ];
      for (const path of pages) {
        await page.goto(path);
        await expectAccessible(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
        expect(overflow, `${path} overflows at ${width}px`).toBe(false);
      }
      const problems = await watchPage(page);
      await hydrated(page, `/product/${product.id}`);
      await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
      await text(page, 'Item successfully added to your cart').waitFor();
      await expectAccessible(page);
      for (const path of ['/cart', '/checkout']) {
        await hydrated(page, path);
        await expectAccessible(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
        expect(overflow, `${path} with items overflows at ${width}px`).toBe(false);
      }
      await page.getByRole('button', { name: 'Place Order' }).click();
      await text(page, 'Name must be at least 2 characters').waitFor();
      await expectAccessible(page);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
