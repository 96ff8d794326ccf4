import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_MESSAGES } from '../../src/shop/checkout-schema.ts';
import { SHOP_MESSAGES } from '../../src/shop/messages.ts';
import { setStock, stockOf } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { CHECKOUT_RATE_LIMIT: '8' } });
});
afterAll(async () => {
  await app?.close();
});

describe('products API', () => {
  it('lists active products 12 a page, filters, and hides inactive ones from the public', async () => {
    const { db } = app.services;
    for (let i = 0; i < 13; i++) await createProductRow(db, { category: 'Courses', name: `Course ${i}` });
    const hidden = await createProductRow(db, { status: 'inactive', name: 'Hidden thing' });
    await createProductRow(db, { category: 'Digital', name: 'Zebra wallpaper', featured: true });
    const page1 = await (await fetch(`${app.url}/api/products`)).json();
    expect(page1.products).toHaveLength(12);
    expect(page1.pagination).toEqual({ page: 1, limit: 12, total: 14, pages: 2 });
    expect(typeof page1.products[0].price).toBe('number');
    const courses = await (await fetch(`${app.url}/api/products?category=Courses&page=2`)).json();
    expect(courses.products).toHaveLength(1);
    const search = await (await fetch(`${app.url}/api/products?search=zebra`)).json();
    expect(search.products.map((p: { name: string }) => p.name)).toEqual(['Zebra wallpaper']);
    const featured = await (await fetch(`${app.url}/api/products?action=featured`)).json();
    expect(featured.products.map((p: { name: string }) => p.name)).toEqual(['Zebra wallpaper']);
    const categories = await (await fetch(`${app.url}/api/products?action=categories`)).json();
    expect(categories.categories).toEqual(['Courses', 'Books', 'Digital', 'Merchandise', 'Physical']);
    expect((await fetch(`${app.url}/api/products/${hidden.id}`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/products?id=abc`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/products/99999999999`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/products?status=inactive`)).status).toBe(401);
    // Empty parameters are omitted; bad ones are a 400 that names them.
    expect((await fetch(`${app.url}/api/products?page=&category=&search=`)).status).toBe(200);
    for (const [query, message] of [
      ['page=-1', 'page must be a number from 1 to 100000'],
      ['page=abc', 'page must be a number from 1 to 100000'],
      ['limit=1000', 'limit must be a number from 1 to 100'],
      ['category=Nope', 'category must be one of Courses, Books, Digital, Merchandise, Physical'],
      ['status=bogus', 'status must be active, inactive or all'],
      ['action=featured&limit=0', 'limit must be a number from 1 to 24'],
    ]) {
      const res = await fetch(`${app.url}/api/products?${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json()).message, query).toBe(message);
    }

    // Featured Products on the home page: for everyone, unless the shop requires sign-in.
    expect(await (await fetch(`${app.url}/`)).text()).toContain('Featured Products');
    await db('blog_settings').insert({
      id: 1,
      title: 'Penstand',
      description: 'd',
      author_name: 'a',
      author_bio: 'b',
      shop_requires_sign_in: true,
    });
    expect(await (await fetch(`${app.url}/`)).text()).not.toContain('Featured Products');
    const member = await signedInSession(app);
    expect(await (await fetch(`${app.url}/`, { headers: member.headers })).text()).toContain(
      'Featured Products',
    );
    await db('blog_settings').where({ id: 1 }).delete();
  });

  it('lets only admins create, update and delete, with field messages for bad input', async () => {
    const body = { name: 'Mug', description: 'A mug', category: 'Merchandise', price: 1299, stock: 5 };
    const anon = await fetch(`${app.url}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(anon.status).toBe(401);
    const user = await signedInSession(app);
    const asUser = await fetch(`${app.url}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...user.headers },
      body: JSON.stringify(body),
    });
    expect(asUser.status).toBe(403);
    const admin = await signedInSession(app, { role: 'admin' });
    const headers = { 'content-type': 'application/json', ...admin.headers };
    const bad = await fetch(`${app.url}/api/products`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, price: 12.5 }),
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('Price must be a whole number of cents');
    const created = await fetch(`${app.url}/api/products`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
    const product = await created.json();
    expect(product).toMatchObject({ name: 'Mug', price: 1299, stock: 5, status: 'active', featured: false });
    const updated = await fetch(`${app.url}/api/products?id=${product.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ stock: null, featured: true }),
    });
    expect(await updated.json()).toMatchObject({ stock: null, featured: true, price: 1299 });
    const malformed = await fetch(`${app.url}/api/products?id=${product.id}`, {
      method: 'PUT',
      headers,
      body: '{',
    });
    expect(malformed.status).toBe(400);
    const deleted = await fetch(`${app.url}/api/products?id=${product.id}`, { method: 'DELETE', headers });
    expect(deleted.status).toBe(200);
    expect((await fetch(`${app.url}/api/products/${product.id}`)).status).toBe(404);
  });

  it('creates a product from `image` alone: a gallery of that one image', async () => {
    const admin = await signedInSession(app, { role: 'admin' });
    const created = await fetch(`${app.url}/api/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...admin.headers },
      body: JSON.stringify({
        name: 'Poster',
        description: 'A poster',
        category: 'Merchandise',
        price: 900,
        stock: 3,
        image: '/uploads/poster.png',
      }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      image: '/uploads/poster.png',
      images: ['/uploads/poster.png'],
    });
  });
});

describe('cart API', () => {
  it('starts no session for a new guest whose add is refused (sold out), and one for the next that is taken', async () => {
    const { db } = app.services;
    const soldOut = await createProductRow(db, { price: 1500, stock: 0 });
    const sessionsBefore = Number((await db('sessions').count({ n: '*' }).first())?.n);
    const refused = await fetch(`${app.url}/api/cart?action=add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ productId: soldOut.id }),
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(SHOP_MESSAGES.outOfStockNote);
    expect(refused.headers.get('x-session-id')).toBeNull();
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(Number((await db('sessions').count({ n: '*' }).first())?.n)).toBe(sessionsBefore);

    await setStock(db, soldOut.id, 2);
    const guest = new GuestClient(app);
    expect((await guest.add(soldOut.id)).status).toBe(201);
    expect(guest.sid).toMatch(/^[\w-]{32,}$/);
    expect(await db('sessions').where({ sid: guest.sid }).first('sid')).toEqual({ sid: guest.sid });
    expect((await guest.request('GET', '/api/cart?action=count')).body).toEqual({ count: 1 });
  });

  it('gives an API guest a session, keeps its cart, refuses over-stock and hides other carts', async () => {
    const { db } = app.services;
    const book = await createProductRow(db, { price: 2999, stock: 3 });
    const ebook = await createProductRow(db, { price: 1499, stock: null });
    const guest = new GuestClient(app);
    const added = await guest.add(book.id);
    expect(added.status).toBe(201);
    expect(added.body.message).toBe('Item successfully added to your cart');
    expect(guest.sid).toMatch(/^[\w-]{32,}$/);
    expect((await guest.add(ebook.id, 4)).body.message).toBe('4 item(s) added to your cart');
    const unknown = await fetch(`${app.url}/api/cart?action=bogus`);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe('No API endpoint at GET /api/cart?action=bogus');
    const over = await guest.add(book.id, 3);
    expect(over.status).toBe(409);
    expect(over.body.message).toBe('Only 3 items available in stock');

    const cart = await guest.request('GET', '/api/cart');
    expect(cart.body.summary).toEqual({ totalItems: 5, totalPrice: 2999 + 4 * 1499, digitalOnly: false });
    expect(cart.body.cart.items[0]).toMatchObject({
      productId: book.id,
      quantity: 1,
      product: { name: book.name, category: 'Books', price: 2999, stock: 3, image: null },
    });
    expect((await guest.request('GET', '/api/cart?action=count')).body).toEqual({ count: 5 });
    expect((await guest.request('GET', '/api/cart/items')).body.items).toHaveLength(2);

    const lineId = cart.body.cart.items[0].id;
    const other = new GuestClient(app);
    await other.add(ebook.id);
    expect((await other.request('PUT', `/api/cart?id=${lineId}`, { quantity: 2 })).status).toBe(404);
    expect((await other.request('DELETE', `/api/cart?id=${lineId}`)).status).toBe(404);

    expect((await guest.request('PUT', `/api/cart?id=${lineId}`, { quantity: 4 })).body.message).toBe(
      'Enter a quantity between 1 and 3',
    );
    expect((await guest.request('PUT', `/api/cart?id=${lineId}`, { quantity: '2' })).body).toEqual({
      id: lineId,
      quantity: 2,
    });
    expect((await guest.request('DELETE', `/api/cart?id=${lineId}`)).body.message).toBe('Item removed');
    expect((await guest.request('GET', '/api/cart?action=count')).body).toEqual({ count: 4 });

    // A product deactivated while in the cart disappears with a notice.
    await db('products').where({ id: ebook.id }).update({ status: 'inactive' });
    const after = await guest.request('GET', '/api/cart');
    expect(after.body.cart.items).toEqual([]);
    expect(after.body.notices[0]).toContain('is no longer available');
    await db('products').where({ id: ebook.id }).update({ status: 'active' });

    // A product deleted while in the cart: gone, with a notice shown once.
    const doomed = await createProductRow(db, { name: 'Doomed Poster' });
    await guest.add(doomed.id);
    const admin = await signedInSession(app, { role: 'admin' });
    const removed = await fetch(`${app.url}/api/products/${doomed.id}`, {
      method: 'DELETE',
      headers: admin.headers,
    });
    expect(removed.status).toBe(200);
    const notified = await guest.request('GET', '/api/cart');
    expect(notified.body.notices).toEqual([
      '"Doomed Poster" is no longer available and was removed from your cart.',
    ]);
    expect((await guest.request('GET', '/api/cart')).body.notices).toEqual([]);

    await guest.add(ebook.id, 2);
    expect((await guest.request('DELETE', '/api/cart?action=clear')).body.message).toBe('Cart cleared');
    expect((await guest.request('GET', '/api/cart')).body.summary.totalItems).toBe(0);
    expect((await guest.request('POST', '/api/cart?action=add', { quantity: 1 })).status).toBe(400);
  });
});

describe('oversized bodies', () => {
  it('answers 413 with a message and keeps the connection usable for the next request', async () => {
    const big = JSON.stringify({ productId: 1, note: 'x'.repeat(300_000) });
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${app.url}/api/cart?action=add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: big,
      });
      expect(res.status).toBe(413);
      expect((await res.json()).message).toBe('Request body is too large.');
      const next = await fetch(`${app.url}/api/cart?action=add`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(next.status).toBe(400);
      await next.arrayBuffer();
    }
  });
});

describe('orders API', () => {
  it('validates, checks out idempotently, lists my orders and looks orders up', async () => {
    const { db } = app.services;
    const lamp = await createProductRow(db, { price: 4500, stock: 2, name: 'Desk lamp' });
    const guest = new GuestClient(app);
    await guest.add(lamp.id, 2);

    const invalid = await guest.checkout({
      customerName: 'A',
      customerEmail: 'nope',
      address: '1',
      city: 'X',
      zipCode: '1',
      country: 'Y',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual({
      customerName: 'Name must be at least 2 characters',
      customerEmail: 'Please enter a valid email',
      address: 'Address must be at least 5 characters',
      city: 'City must be at least 2 characters',
      country: ADDRESS_MESSAGES.country,
    });
    expect(
      (await guest.request('POST', '/api/orders', undefined, { 'content-type': 'application/json' })).status,
    ).toBe(400);
    expect((await guest.request('POST', '/api/orders', [1])).body.message).toBe(
      'Request body must be a JSON object.',
    );

    const first = await guest.checkout(validCheckout, 'key-aaaaaaaa-1');
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(Number),
      totalAmount: 9000,
      status: 'pending',
      paymentStatus: 'unpaid',
      customerName: 'Ada Lovelace',
      customerEmail: 'ada@example.com',
      // Manual payment (no Stripe keys): the order's own page and the writer's instructions (none set).
      orderUrl: expect.stringMatching(new RegExp(`^${app.url}/orders/${first.body.id}\\?key=[\\w-]{32}$`)),
      paymentInstructions: '',
    });
    const again = await guest.checkout(validCheckout, 'key-aaaaaaaa-1');
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(await db('orders').count({ n: '*' }).first()).toEqual({ n: 1 });
    const stored = await db('orders').where({ id: first.body.id }).first();
    expect(stored).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', postal_code: 'SW1A 1AA' });
    expect(await stockOf(db, lamp.id)).toBe(0);
    // Another session cannot replay someone else's key.
    const stranger = new GuestClient(app);
    await stranger.add((await createProductRow(db)).id);
    expect((await stranger.checkout(validCheckout, 'key-aaaaaaaa-1')).status).toBe(409);

    const mine = await guest.request('GET', '/api/orders?action=my-orders');
    expect(mine.body.orders.map((o: { id: number }) => o.id)).toEqual([first.body.id]);

    const empty = await guest.checkout();
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe('Please add items to your cart before checkout.');

    // Overselling is a 409 with the stock message.
    await setStock(db, lamp.id, 1);
    await guest.add(lamp.id, 1);
    await setStock(db, lamp.id, 0);
    const oversold = await guest.checkout(validCheckout, 'key-bbbbbbbb-2');
    expect(oversold.status).toBe(409);
    expect(oversold.body.message).toBe('Only 0 items available in stock');

    // A verified user sees the guest orders placed with their email.
    const user = await signedInSession(app, { email: 'ada@example.com' });
    const asUser = await fetch(`${app.url}/api/orders?action=my-orders`, { headers: user.headers });
    expect((await asUser.json()).orders.map((o: { id: number }) => o.id)).toEqual([first.body.id]);
    await db('users').where({ id: user.user.id }).update({ email_verified: false });
    const unverified = await fetch(`${app.url}/api/orders?action=my-orders`, { headers: user.headers });
    expect((await unverified.json()).orders).toEqual([]);

    // Lookup: same answer for a wrong number and a wrong email.
    const page = async (id: string, email: string) => {
      const form = new URLSearchParams({ orderId: id, email });
      const res = await fetch(`${app.url}/orders/lookup`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
        body: form,
      });
      return res.text();
    };
    const found = await page(String(first.body.id), 'ADA@example.com');
    expect(found).toContain('Desk lamp');
    const wrongEmail = await page(String(first.body.id), 'eve@example.com');
    const wrongId = await page('999999', 'ada@example.com');
    expect(wrongEmail).toContain('We could not find an order with that number and email address.');
    expect(wrongId).toContain('We could not find an order with that number and email address.');
  });

  it('rate-limits checkout per IP with a 429', async () => {
    const guest = new GuestClient(app);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await guest.checkout()).status);
    expect(statuses).toContain(429);
  });
});
