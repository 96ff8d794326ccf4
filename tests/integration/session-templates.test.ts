import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteHandle } from '../../src/app/plain-page.ts';
import { slugify } from '../../src/blog/slug.ts';
import { setStock } from '../../src/shop/stock.ts';
import { loadBuild, startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { PAGE_CACHE_TTL_SECONDS: '60' } });
});
afterAll(async () => {
  await app?.close();
});

/** Any placeholder of session-templates.ts left in a page. */
const PLACEHOLDER = /\bp[neuk][0-9a-f]{24}x\b/;

async function page(path: string, cookie: string, encoding = 'gzip') {
  const res = await fetch(`${app.url}${path}`, { headers: { cookie, 'accept-encoding': encoding } });
  return {
    status: res.status,
    html: await res.text(),
    cache: res.headers.get('x-cache'),
    encoding: res.headers.get('content-encoding'),
    csp: res.headers.get('content-security-policy') ?? '',
  };
}

function noncesOf(html: string): Set<string> {
  return new Set([...html.matchAll(/\snonce="([^"]+)"/g)].map((m) => m[1]));
}

describe('pages for sessions, rendered once as templates', () => {
  it("give each signed-in reader their own email and nonce, never another's", async () => {
    const ada = await signedInSession(app, { email: 'ada.reader+blog@example.com' });
    const bob = await signedInSession(app, { email: 'bob_reads@example.org' });
    const first = await page('/', ada.cookie);
    expect(first.status).toBe(200);
    expect(first.cache).toBeNull(); // rendered for Ada, kept as a template
    expect(first.html).toContain('ada.reader+blog@example.com');

    const second = await page('/', bob.cookie);
    expect(second.cache).toBe('TEMPLATE');
    expect(second.encoding).toBe('gzip'); // spliced, and decoded by fetch as any gzip body
    expect(second.html).toContain('bob_reads@example.org');
    expect(second.html).not.toContain('ada.reader');
    expect(second.html).not.toMatch(PLACEHOLDER);
    // The hydration data carries Bob's values too.
    expect(second.html).toMatch(/bob_reads@example\.org[\s\S]*<script[^>]*>[\s\S]*bob_reads@example\.org/);

    // A fresh nonce per response, the one its CSP allows.
    const nonces = noncesOf(second.html);
    expect(nonces.size).toBe(1);
    const [nonce] = nonces;
    expect(second.csp).toContain(`'nonce-${nonce}'`);
    expect(noncesOf((await page('/', bob.cookie)).html)).not.toEqual(nonces);

    // The same bytes without compression.
    const plain = await page('/', bob.cookie, 'identity');
    expect(plain.encoding).toBeNull();
    expect(plain.html.replace(/nonce="[^"]+"/g, '')).toBe(second.html.replace(/nonce="[^"]+"/g, ''));
  });

  it('render a reader whose email would need escaping, or who brings a toast, live', async () => {
    const odd = await signedInSession(app, { email: "o'neil&co@example.com" });
    await page('/about', odd.cookie);
    const again = await page('/about', odd.cookie);
    expect(again.cache).toBeNull();
    expect(again.html).toContain('o&#x27;neil&amp;co@example.com');

    const reader = await signedInSession(app);
    await page('/about', reader.cookie);
    const toast = Buffer.from(JSON.stringify({ type: 'success', title: 'Saved for later' })).toString(
      'base64url',
    );
    const withToast = await page('/about', `${reader.cookie}; toast=${toast}`);
    expect(withToast.cache).toBeNull();
    expect(withToast.html).toContain('Saved for later');
  });

  it('are dropped when an admin writes', async () => {
    const reader = await signedInSession(app);
    const admin = await signedInSession(app, { role: 'admin' });
    await page('/about', reader.cookie);
    expect((await page('/about', reader.cookie)).cache).toBe('TEMPLATE');
    const res = await fetch(`${app.url}/api/settings`, {
      method: 'PUT',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'A Retitled Blog',
        description: 'Desc',
        authorName: 'Ada',
        authorBio: 'Bio',
        shopRequiresSignIn: false,
      }),
    });
    expect(res.status).toBe(200);
    const after = await page('/about', reader.cookie);
    expect(after.cache).toBeNull();
    expect(after.html).toContain('A Retitled Blog');
  });

  it('serve every route whose handle asks for it from a template: none of their loaders reads the session', async () => {
    await seedDemo(app);
    const { db } = app.services;
    const post = await publishedPost(app);
    const author = await db('users').where({ id: post.author_id }).first('username');
    const product = await createProductRow(app.services.db, { name: 'Handle Mug', price: 900, stock: 5 });
    const paths: Record<string, string> = {
      '/': '/',
      '/blog': '/blog',
      '/about': '/about',
      '/shop': '/shop',
      '/cart': '/cart',
      '/checkout': '/checkout',
      '/post/:slug': `/post/${post.slug}`,
      '/tag/:slug': `/tag/${slugify(post.tags[0])}`,
      '/category/:name': `/category/${slugify(post.category)}`,
      '/author/:username': `/author/${author.username}`,
      '/product/:id': `/product/${product.id}`,
    };
    const build = await loadBuild();
    const templated = Object.values(build.routes)
      .filter((route) => (route?.module.handle as RouteHandle | undefined)?.sessionTemplate)
      .map((route) => (route?.index ? '/' : `/${route?.path}`));
    // A route that takes templates needs a page here, so this test covers it.
    expect(templated.sort()).toEqual(Object.keys(paths).sort());

    const reader = await signedInSession(app, { email: 'handle.reader@example.com' });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id, 1)).status).toBeLessThan(300);
    for (const [route, path] of Object.entries(paths)) {
      // The cart pages need a cart: a guest's.
      const cookie = path === '/cart' || path === '/checkout' ? `sid=${guest.sid}` : reader.cookie;
      const first = await page(path, cookie);
      expect(first.status, route).toBe(200);
      // Kept only when the render read no more of the session than its template stands for.
      expect((await page(path, cookie)).cache, route).toBe('TEMPLATE');
    }
    expect(app.logText()).not.toContain('a templated page read the session');
  });

  it("key the cart and checkout pages by the cart's lines, with a new order key in every checkout form", async () => {
    const product = await createProductRow(app.services.db, { name: 'Template Mug', price: 1200, stock: 20 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id, 2)).status).toBeLessThan(300);
    const cookie = `sid=${guest.sid}`;
    await page('/cart', cookie);
    const cart = await page('/cart', cookie);
    expect(cart.cache).toBe('TEMPLATE');
    expect(cart.html).toContain('Template Mug');
    expect(cart.html).toMatch(/aria-label="Cart, 2 items"/);

    // Another unit: the cart's signature changes, and so does the page.
    expect((await guest.add(product.id, 1)).status).toBeLessThan(300);
    const grown = await page('/cart', cookie);
    expect(grown.cache).toBeNull();
    expect(grown.html).toMatch(/aria-label="Cart, 3 items"/);

    // Stock sold to someone else is a different page too, though no admin wrote.
    await setStock(app.services.db, product.id, 3);
    expect((await page('/cart', cookie)).cache).toBeNull();

    const keyOf = (html: string) => {
      const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1] ?? '';
      // The hydration data names the same key as the form.
      expect(html.split(key).length - 1).toBeGreaterThanOrEqual(2);
      return key;
    };
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push(keyOf((await page('/checkout', cookie)).html));
    expect((await page('/checkout', cookie)).cache).toBe('TEMPLATE');
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f-]{36}$/);

    // The key of a templated form places the order.
    const html = (await page('/checkout', cookie)).html;
    const form = new URLSearchParams({
      idempotencyKey: keyOf(html),
      customerName: 'Tem Plate',
      customerEmail: 'tem@example.com',
      address: '1 Main St',
      city: 'Springfield',
      zipCode: '12345',
      country: 'US',
    });
    const placed = await fetch(`${app.url}/checkout`, {
      method: 'POST',
      headers: { cookie, origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    expect(placed.status).toBeLessThan(400);
    const order = await app.services.db('orders').where({ email: 'tem@example.com' }).first();
    expect(order).toBeTruthy();
  });
});
