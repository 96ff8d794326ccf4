import { afterAll, beforeAll, expect, it } from 'vitest';
import { getBlogSettings } from '../../src/settings/settings.ts';
import { SHOP_MESSAGES } from '../../src/shop/messages.ts';
import { setStock } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow } from '../support/shop.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

/** A page's HTML without React's text separators. */
const page = async (path: string, cookie = '') =>
  (await (await fetch(`${app.url}${path}`, { headers: { cookie } })).text()).replaceAll('<!-- -->', '');

function addFromCard(fields: Record<string, string>, cookie = '') {
  return fetch(`${app.url}/cart/add`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The toast a redirect carries to the next page. */
function toastOf(response: Response): { title: string; description?: string; type?: string } | null {
  const raw = response.headers
    .getSetCookie()
    .map((c) => /^toast=([^;]+)/.exec(c)?.[1])
    .find(Boolean);
  return raw ? JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) : null;
}

/** The card of a product in a page, up to the end of its list item. */
const cardOf = (html: string, id: number) =>
  new RegExp(`<li class="card product-card" id="product-${id}">(.*?)</li>`, 's').exec(html)?.[1] ?? '';

it("shows each card's stock and an Add to Cart form that needs no script", async () => {
  const low = await createProductRow(app.services.db, { name: 'Low Mug', stock: 2 });
  const gone = await createProductRow(app.services.db, { name: 'Gone Tee', stock: 0 });
  const plenty = await createProductRow(app.services.db, { name: 'Plenty Book', stock: null });
  const html = await page('/shop');

  const lowCard = cardOf(html, low.id);
  expect(lowCard).toContain('<p class="stock-note">Only 2 left in stock!</p>');
  expect(lowCard).toMatch(/<form [^>]*action="\/cart\/add" method="post"/);
  expect(lowCard).toContain(`<input type="hidden" name="productId" value="${low.id}"/>`);
  expect(lowCard).toContain('<input type="hidden" name="returnTo" value="/shop"/>');
  expect(lowCard).toMatch(
    /<button type="submit" class="button button-small button-secondary" aria-label="Add to Cart: Low Mug">Add to Cart<\/button>/,
  );

  const goneCard = cardOf(html, gone.id);
  expect(goneCard).toContain(`<span class="badge badge-danger">${SHOP_MESSAGES.outOfStockBadge}</span>`);
  expect(goneCard).toMatch(/<button type="submit" class="button button-small button-secondary" disabled=""/);
  expect(goneCard).not.toContain('stock-note');
  expect(cardOf(html, plenty.id)).not.toContain('stock-note');
});

it('adds one from a card and goes back to the card with a toast; the header shows the count', async () => {
  const product = await createProductRow(app.services.db, { name: 'Card Poster', stock: 5 });
  const response = await addFromCard({ productId: String(product.id), returnTo: '/shop?page=1' });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe(`/shop?page=1#product-${product.id}`);
  expect(toastOf(response)).toEqual({
    title: SHOP_MESSAGES.addedTitle,
    description: SHOP_MESSAGES.addedOne,
    type: 'success',
  });
  const sid = response.headers
    .getSetCookie()
    .map((c) => /^sid=([^;]+)/.exec(c)?.[1])
    .find(Boolean);
  expect(sid).toBeTruthy();
  const cookie = `sid=${sid}`;
  const again = await addFromCard({ productId: String(product.id), returnTo: '/' }, cookie);
  expect(again.headers.get('location')).toBe(`/#product-${product.id}`);

  const shop = await page('/shop', cookie);
  expect(shop).toContain('aria-label="Cart, 2 items"');
  expect(shop).toContain('<span class="cart-badge" aria-hidden="true">2</span>');
  expect(await page('/cart', cookie)).toContain('Card Poster');
});

it('refuses what cannot be added with a clear toast, and never sends the reader to another site', async () => {
  const gone = await createProductRow(app.services.db, { name: 'Sold Hat', stock: 0 });
  const refused = await addFromCard({ productId: String(gone.id), returnTo: '/shop' });
  expect(refused.status).toBe(303);
  // Said as it is, not as 'Only 0 items available in stock'.
  expect(toastOf(refused)).toEqual({
    title: SHOP_MESSAGES.outOfStock,
    description: SHOP_MESSAGES.outOfStockNote,
    type: 'error',
  });

  const unknown = await addFromCard({ productId: 'abc', returnTo: '/shop' });
  expect(toastOf(unknown)).toMatchObject({ title: SHOP_MESSAGES.errorTitle, type: 'error' });

  for (const returnTo of ['https://evil.example/', '//evil.example/x', '/\\evil.example', ''])
    expect((await addFromCard({ productId: String(gone.id), returnTo })).headers.get('location')).toBe(
      `/shop#product-${gone.id}`,
    );
});

it('goes back to a path in any script, and refuses a NUL in any form field with a 400', async () => {
  const product = await createProductRow(app.services.db, { name: 'Kanji Mug' });
  const back = async (returnTo: string) => {
    const res = await addFromCard({ productId: String(product.id), returnTo });
    return [res.status, res.headers.get('location')];
  };
  expect(await back('/shop?q=日本')).toEqual([303, `/shop?q=%E6%97%A5%E6%9C%AC#product-${product.id}`]);
  expect(await back('/shop?q=a\r\nb')).toEqual([303, `/shop?q=ab#product-${product.id}`]);
  // The URL parser drops the newline: what is left names another host.
  expect(await back('/\n/evil.example/x')).toEqual([303, `/shop#product-${product.id}`]);
  expect(await back(`/${'x'.repeat(20_000)}`)).toEqual([303, `/shop#product-${product.id}`]);
  const nul = await addFromCard({ productId: String(product.id), returnTo: '/shop\u0000' });
  expect(nul.status).toBe(400);
  expect(await nul.text()).toContain('Form fields must not contain NUL characters.');
  const checkout = await fetch(`${app.url}/checkout`, {
    method: 'POST',
    headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'apply-discount', discountCode: 'SAVE\u000010' }).toString(),
  });
  expect(checkout.status).toBe(400);
});

it('describes a product for search engines with Product JSON-LD: price, currency, availability', async () => {
  const product = await createProductRow(app.services.db, {
    name: 'Schema Course',
    price: 2999,
    stock: 3,
    category: 'Courses',
    image: '/demo/course-testing.svg',
  });
  const html = await page(`/product/${product.id}`);
  const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}';
  const canonical = `${app.services.publicUrl}/product/${product.id}`;
  expect(JSON.parse(json)).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'Schema Course',
    category: 'Courses',
    image: [`${app.services.publicUrl}/demo/course-testing.svg`], // every image of the gallery
    offers: {
      '@type': 'Offer',
      url: canonical,
      price: '29.99',
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
    },
  });
  await setStock(app.services.db, product.id, 0);
  const soldOut = await page(`/product/${product.id}`);
  expect(soldOut).toContain('"availability":"https://schema.org/OutOfStock"');
});

it('shows up to four related products of the same category on a product page', async () => {
  const main = await createProductRow(app.services.db, { name: 'Main Book', category: 'Books' });
  const sibling = await createProductRow(app.services.db, { name: 'Sibling Book', category: 'Books' });
  const hidden = await createProductRow(app.services.db, {
    name: 'Hidden Book',
    category: 'Books',
    status: 'inactive',
  });
  const other = await createProductRow(app.services.db, { name: 'Other Mug', category: 'Merchandise' });
  const html = await page(`/product/${main.id}`);
  const related = /<section class="related-products"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? '';
  expect(related).toContain('<h2 id="related-products-heading">Related Products</h2>');
  const ids = [...related.matchAll(/id="product-(\d+)"/g)].map((m) => Number(m[1]));
  expect(ids.length).toBeLessThanOrEqual(4);
  expect(ids[0]).toBe(sibling.id);
  expect(ids).not.toContain(main.id);
  expect(ids).not.toContain(hidden.id);
  expect(ids).not.toContain(other.id);
  expect(related).toContain(`<input type="hidden" name="returnTo" value="/product/${main.id}"/>`);
});

it('makes each shop card one link with exactly one action: large image, title, price, Add to Cart', async () => {
  const products = [
    await createProductRow(app.services.db, { name: 'One Link Lamp', stock: 40, featured: true }),
    await createProductRow(app.services.db, { name: 'One Link Pen', stock: 0, featured: true }),
  ];
  for (const path of ['/shop', '/'])
    for (const product of products) {
      const card = cardOf(await page(path), product.id);
      expect(card).not.toBe('');
      const links = [...card.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
      expect(links).toEqual([`/product/${product.id}`]);
      expect(card.match(/<button /g)).toHaveLength(1);
      // The link's name starts with the SPEC's 'View Details'; the card shows the product's name.
      expect(card).toContain(`<span class="visually-hidden">View Details: </span>${product.name}</a>`);
    }
});

it('says the stock once on a product page, with the full description and the shop notes from the settings', async () => {
  const description = 'First paragraph about the paper.\n\nSecond paragraph about the binding.';
  const low = await createProductRow(app.services.db, { name: 'Few Notebook', stock: 3, description });
  const lowPage = await page(`/product/${low.id}`);
  /** What the product's own part says about its stock: badges, notes and the form. */
  const stockMessages = (html: string) => html.match(/in stock|Only \d+ left|out of stock/gi) ?? [];
  const detail = (html: string) => /<div class="product-info">.*?<\/form>/s.exec(html)?.[0] ?? '';
  expect(stockMessages(detail(lowPage))).toEqual(['in stock']);
  expect(detail(lowPage)).toContain('<span class="badge badge-warning">3 in stock</span>');
  expect(lowPage).toContain(
    '<p>First paragraph about the paper.</p><p>Second paragraph about the binding.</p>',
  );

  const gone = await createProductRow(app.services.db, { name: 'Gone Notebook', stock: 0 });
  // Out of stock: the SPEC's badge, and its sentence where the quantity and total would be.
  expect(stockMessages(detail(await page(`/product/${gone.id}`)))).toEqual(['Out of stock', 'out of stock']);

  expect(lowPage).not.toContain('product-note');
  const admin = await signedInSession(app, { role: 'admin' });
  const save = (changes: Record<string, unknown>) =>
    getBlogSettings(app.services.db).then((current) =>
      fetch(`${app.url}/api/settings`, {
        method: 'PUT',
        headers: { ...admin.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ...current, ...changes }),
      }),
    );
  const tooLong = await save({ shippingNote: 'x'.repeat(1001) });
  expect(tooLong.status).toBe(400);
  expect((await tooLong.json()).message).toContain('Keep the shipping note to 1,000 characters or fewer');
  expect(
    (await save({ shippingNote: ' Ships in two days. ', returnsNote: 'Returns within 30 days.' })).status,
  ).toBe(200);
  const withNotes = await page(`/product/${low.id}`);
  expect(withNotes).toContain('<summary>Shipping</summary><p>Ships in two days.</p>');
  expect(withNotes).toContain('<summary>Returns</summary><p>Returns within 30 days.</p>');
});

it('heads the cart once, and keeps its summary to items, total and one note', async () => {
  const product = await createProductRow(app.services.db, { name: 'Summary Mug', price: 1500 });
  const added = await addFromCard({ productId: String(product.id), returnTo: '/shop' });
  const sid = added.headers
    .getSetCookie()
    .map((c) => /^sid=([^;]+)/.exec(c)?.[1])
    .find(Boolean);
  const cart = await page('/cart', `sid=${sid}`);
  expect(cart.match(/<h[12][ >][^<]*(Cart|Shopping Cart)</g)).toEqual([
    '<h1 id="cart-heading">Shopping Cart<',
  ]);
  const summary = /<aside class="card order-summary".*?<\/aside>/s.exec(cart)?.[0] ?? '';
  expect([...summary.matchAll(/<dt>([^<]*)<\/dt>/g)].map((m) => m[1])).toEqual(['Items (1)', 'Total']);
  expect(summary).toContain('<p class="muted summary-note">Shipping: Calculated at checkout</p>');
  expect(summary).not.toContain('<dd></dd>');
});

it("starts no session for a visitor whose card's Add to Cart is refused (sold out), and one when it is taken", async () => {
  const { db } = app.services;
  const soldOut = await createProductRow(db, { name: 'Sold Out Cap', stock: 0 });
  const sessionsBefore = Number((await db('sessions').count({ n: '*' }).first())?.n);
  const refused = await addFromCard({ productId: String(soldOut.id), returnTo: '/shop' });
  expect(refused.status).toBe(303);
  expect(toastOf(refused)).toMatchObject({ type: 'error', description: SHOP_MESSAGES.outOfStockNote });
  expect(refused.headers.getSetCookie().some((c) => c.startsWith('sid='))).toBe(false);
  expect(Number((await db('sessions').count({ n: '*' }).first())?.n)).toBe(sessionsBefore);

  await setStock(db, soldOut.id, 1);
  const taken = await addFromCard({ productId: String(soldOut.id), returnTo: '/shop' });
  expect(toastOf(taken)).toMatchObject({ type: 'success' });
  const sid = taken.headers
    .getSetCookie()
    .map((c) => /^sid=([^;]+)/.exec(c)?.[1])
    .find(Boolean);
  expect(await db('sessions').where({ sid }).first('sid')).toEqual({ sid });
  expect(await page('/cart', `sid=${sid}`)).toContain('Sold Out Cap');
});
