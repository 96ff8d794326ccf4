import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withProductCards } from '../../src/app/product-cards.server.tsx';
import { renderMarkdown } from '../../src/blog/markdown.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow } from '../support/shop.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  // The page cache on: a product write must drop the stored post page.
  app = await startTestApp({ env: { PAGE_CACHE_TTL_SECONDS: '60' } });
  admin = await signedInSession(app, { role: 'admin' });
});
afterAll(async () => {
  await app?.close();
});

async function api(method: string, path: string, body: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function postWith(title: string, content: string, status = 'published') {
  const res = await api('POST', '/api/posts', {
    title,
    content,
    excerpt: 'Shop talk',
    category: 'Business',
    status,
  });
  expect(res.status).toBe(201);
  return res.body.post as { id: number; slug: string };
}

const page = async (path: string) => (await fetch(`${app.url}${path}`)).text();

describe('[product:ID] cards in posts', () => {
  it('shows the current card, nothing for unknown or inactive products, and a no-JS Add to Cart', async () => {
    const mug = await createProductRow(app.services.db, {
      name: 'Writer’s Mug',
      price: 2999,
      stock: 4,
      image: '/uploads/0123456789abcdef0123456789abcdef.png',
    });
    const hidden = await createProductRow(app.services.db, { name: 'Retired Poster', status: 'inactive' });
    const post = await postWith(
      'The Mug I Write With',
      `Every morning starts here.\n\n[product:${mug.id}]\n\n[product:${hidden.id}]\n\n[product:999999]\n\nMore words.`,
    );

    let html = await page(`/post/${post.slug}`);
    const card = /<aside class="product-embed card"[\s\S]*?<\/aside>/.exec(html)?.[0] ?? '';
    expect(card).toContain('aria-label="Product: Writer’s Mug"');
    expect(card).toContain(`<a href="/product/${mug.id}">Writer’s Mug</a>`);
    expect(card).toContain('$29.99');
    expect(card).toContain('Only 4 left in stock!');
    expect(card).toContain('src="/uploads/0123456789abcdef0123456789abcdef.png"');
    expect(card).toContain('<form action="/cart/add" method="post">');
    expect(card).toContain(`<input type="hidden" name="returnTo" value="/product/${mug.id}"/>`);
    expect(card).toContain(`<input type="hidden" name="fromPost" value="${post.slug}"/>`);
    expect(card).toContain('Add to Cart</button>');
    expect(html.match(/class="product-embed card"/g)).toHaveLength(1);
    expect(html).not.toContain('Retired Poster');
    expect(html).not.toContain('product-slot');
    expect(html).not.toContain('product-embed-warning');
    // Served from the page cache the second time.
    expect(await page(`/post/${post.slug}`)).toBe(html);
    expect(app.services.pageCache.size).toBeGreaterThan(0);

    // A new price in the admin is on the card at the next request.
    const updated = await api('PUT', `/api/products/${mug.id}`, {
      name: 'Writer’s Mug',
      description: 'A mug',
      price: 3450,
      category: 'Merchandise',
      stock: 0,
      status: 'active',
    });
    expect(updated.status).toBe(200);
    html = await page(`/post/${post.slug}`);
    expect(html).toContain('$34.50');
    expect(html).not.toContain('$29.99');
    expect(html).toMatch(/<p class="stock-note stock-out">Out of stock<\/p>/);
    expect(html).toMatch(
      /<button type="submit" class="button button-small" disabled="">Add to Cart<\/button>/,
    );

    // The card's form, posted as a browser without JavaScript posts it, fills the cart.
    await api('PUT', `/api/products/${mug.id}`, { ...updated.body, stock: 4 });
    const fields = new URLSearchParams(
      [...card.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]),
    );
    const added = await fetch(`${app.url}/cart/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
      body: fields,
      redirect: 'manual',
    });
    // On to the product page, with GET, and the answer as a toast there.
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`/product/${mug.id}#product-${mug.id}`);
    const cookies = added.headers.getSetCookie().map((c) => c.split(';')[0]);
    const cookie = cookies.find((c) => c.startsWith('sid=')) ?? '';
    const shown = await fetch(`${app.url}/product/${mug.id}`, { headers: { cookie: cookies.join('; ') } });
    expect(await shown.text()).toContain('Added to cart');
    expect(cookie).toMatch(/^sid=/);
    const cart = await (await fetch(`${app.url}/api/cart`, { headers: { cookie } })).json();
    expect(
      cart.cart.items.map((i: { productId: number; quantity: number }) => [i.productId, i.quantity]),
    ).toEqual([[mug.id, 1]]);
  });

  it('lists the published posts that feature a product on its page', async () => {
    const lamp = await createProductRow(app.services.db, { name: 'Desk Lamp' });
    const published = await postWith('Lighting The Desk', `See [product:${lamp.id}] here.`);
    await postWith('Unfinished Lamp Draft', `[product:${lamp.id}]`, 'draft');
    const html = await page(`/product/${lamp.id}`);
    const section = /<section class="featured-in"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(section).toContain('<h2 id="featured-in-heading">Featured in</h2>');
    expect(section).toContain(`href="/post/${published.slug}"`);
    expect(section).toContain('Lighting The Desk');
    expect(section).not.toContain('Unfinished Lamp Draft');

    // Taking the marker out takes the post off the list.
    await api('PUT', `/api/posts?id=${published.id}`, {
      title: 'Lighting The Desk',
      content: 'No lamp after all.',
      excerpt: 'Shop talk',
      category: 'Business',
      status: 'published',
    });
    expect(await page(`/product/${lamp.id}`)).not.toContain('Featured in');
  });

  it('warns in the editor’s preview where readers will see nothing', async () => {
    const off = await createProductRow(app.services.db, { name: 'Off Shelf', status: 'inactive' });
    const html = await withProductCards(
      app.services.db,
      renderMarkdown(`[product:${off.id}] [product:999999]`),
      app.services.config.currency,
      {
        forEditor: true,
      },
    );
    expect(html).toContain(`[product:${off.id}] is not an active product: readers see nothing here.`);
    expect(html).toContain('[product:999999] is not an active product: readers see nothing here.');
  });
});
