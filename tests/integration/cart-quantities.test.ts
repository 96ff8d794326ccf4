import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

/** Typed quantities that are not a whole number from 1 to the stock: each is refused, none coerced. */
const BAD = ['-5', '1e3', 'abc', '2.5', '0', '-3', '1e2', '6', '99999999999999999999'];
const refusal = 'Enter a quantity between 1 and 5';

/** A form posted without JavaScript; the page that answers, without React's text separators. */
async function postForm(path: string, fields: Record<string, string>, cookie: string) {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, html: (await response.text()).replaceAll('<!-- -->', '') };
}

const quantities = async (productId: number) =>
  (await app.services.db('cart_items').where({ product_id: productId }).select('quantity')).map(
    (r) => r.quantity,
  );

it('refuses a bad quantity on the product page and in the cart form, before anything is written', async () => {
  const product = await createProductRow(app.services.db, { name: 'Counted Mug', stock: 5 });
  const guest = new GuestClient(app);
  await guest.add(product.id, 2);
  const cookie = `sid=${guest.sid}`;
  const lineId = (await guest.request('GET', '/api/cart')).body.cart.items[0].id;

  for (const quantity of BAD) {
    const added = await postForm(`/product/${product.id}`, { quantity }, cookie);
    expect(added.status, quantity).toBe(200);
    expect(added.html, quantity).toContain(refusal);
    const set = await postForm('/cart', { intent: 'set', lineId: String(lineId), quantity }, cookie);
    expect(set.status, quantity).toBe(200);
    expect(set.html, quantity).toContain(refusal);
  }
  expect(await quantities(product.id)).toEqual([2]);

  expect((await postForm(`/product/${product.id}`, { quantity: '3' }, cookie)).html).toContain(
    '3 item(s) added to your cart',
  );
  await postForm('/cart', { intent: 'set', lineId: String(lineId), quantity: ' 4 ' }, cookie);
  expect(await quantities(product.id)).toEqual([4]);
});

it('answers /api/cart with a 400 and the same words for a bad quantity, as JSON text or number', async () => {
  const product = await createProductRow(app.services.db, { name: 'Counted Pen', stock: 5 });
  const unlimited = await createProductRow(app.services.db, { name: 'Counted File', stock: null });
  const guest = new GuestClient(app);
  await guest.add(product.id, 1);
  const lineId = (await guest.request('GET', '/api/cart')).body.cart.items[0].id;

  for (const quantity of [...BAD, -5, 2.5, 0, 1e20]) {
    const added = await guest.add(product.id, quantity);
    expect(added.status, String(quantity)).toBe(400);
    expect(added.body.message).toBe(refusal);
    const set = await guest.request('PUT', `/api/cart?id=${lineId}`, { quantity });
    expect(set.status, String(quantity)).toBe(400);
    expect(set.body.message).toBe(refusal);
  }
  expect(await quantities(product.id)).toEqual([1]);

  // Unlimited stock: a line holds up to the maximum per line, never a database overflow.
  const huge = await guest.add(unlimited.id, '99999999999999999999');
  expect(huge.status).toBe(400);
  expect(huge.body.message).toBe('Enter a quantity between 1 and 10000');
  expect((await guest.add(unlimited.id, 10_000)).status).toBe(201);
});
