import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildProjections } from '../../src/orders/store.ts';
import { stockOf } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { GuestClient, validCheckout } from '../support/shop.ts';
import { startSmtpServer, type TestSmtp } from '../support/smtp.ts';

let app: TestApp;
let smtp: TestSmtp;
let admin: Record<string, string>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({
    withWorker: true,
    env: { SMTP_URL: smtp.url, CHECKOUT_RATE_LIMIT: '100000', DATABASE_POOL_MAX: '20' },
  });
  admin = (await signedInSession(app, { role: 'admin' })).headers;
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...admin, accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

type Variant = { id: number; label: string; stock: number | null; price: number | null; sku: string };

/** A T-shirt in sizes and colours: small black sold out, large black 2 left, the rest 20; XL costs more. */
async function createShirt(name = 'Tee') {
  const sizes = ['S', 'L', 'XL'];
  const colours = ['Black', 'Blue'];
  const res = await api('POST', '/api/products', {
    name,
    description: 'Cotton',
    price: 2500,
    category: 'Merchandise',
    options: [
      { name: 'Size', values: sizes },
      { name: 'Colour', values: colours },
    ],
    variants: sizes.flatMap((size) =>
      colours.map((colour) => ({
        options: { Size: size, Colour: colour },
        stock: size === 'S' && colour === 'Black' ? 0 : size === 'L' && colour === 'Black' ? 2 : 20,
        sku: `${name}-${size}-${colour}`,
        ...(size === 'XL' ? { price: 2800 } : {}),
      })),
    ),
  });
  expect(res.status).toBe(201);
  const variant = (label: string) =>
    (res.body.variants as Variant[]).find((v) => v.label === label) as Variant;
  return { product: res.body as { id: number; stock: number | null; variants: Variant[] }, variant };
}

describe('product variants', () => {
  it('are created and answered with ids and labels, keep their ids when saved again, and are checked', async () => {
    const { product, variant } = await createShirt();
    expect(product.variants.map((v) => v.label)).toEqual([
      'Size: S, Colour: Black',
      'Size: S, Colour: Blue',
      'Size: L, Colour: Black',
      'Size: L, Colour: Blue',
      'Size: XL, Colour: Black',
      'Size: XL, Colour: Blue',
    ]);
    expect(variant('Size: XL, Colour: Blue')).toMatchObject({ price: 2800, stock: 20, sku: 'Tee-XL-Blue' });
    expect(variant('Size: S, Colour: Blue').price).toBeNull();
    expect(product.stock).toBe(0 + 20 + 2 + 20 + 20 + 20);

    // Saved again with one combination dropped and one stock changed: the others keep their ids.
    const kept = product.variants.filter((v) => v.label !== 'Size: S, Colour: Black');
    const saved = await api('PUT', `/api/products/${product.id}`, {
      options: [
        { name: 'Size', values: ['S', 'L', 'XL'] },
        { name: 'Colour', values: ['Black', 'Blue'] },
      ],
      variants: kept.map((v) => ({
        options: Object.fromEntries(v.label.split(', ').map((pair) => pair.split(': '))),
        stock: v.label === 'Size: L, Colour: Blue' ? 7 : v.stock,
        sku: v.sku,
        price: v.price,
      })),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.variants.map((v: Variant) => v.id)).toEqual(kept.map((v) => v.id));
    expect(saved.body.variants.find((v: Variant) => v.label === 'Size: L, Colour: Blue').stock).toBe(7);
    expect(
      await app.services.db('stock_levels').where({ variant_id: variant('Size: S, Colour: Black').id }),
    ).toEqual([]);

    // An edit of other fields leaves the variants alone.
    const renamed = await api('PUT', `/api/products/${product.id}`, { name: 'Tee shirt' });
    expect(renamed.body.variants.map((v: Variant) => v.id)).toEqual(kept.map((v) => v.id));

    for (const [body, message] of [
      [
        { options: [{ name: 'Size', values: ['S'] }], variants: [] },
        'A product with options needs at least one variant',
      ],
      [
        { options: [{ name: 'Size', values: ['S'] }], variants: [{ options: { Size: 'M' }, stock: 1 }] },
        'Each variant chooses one listed value of every option (Size)',
      ],
      [
        {
          options: [{ name: 'Size', values: ['S'] }],
          variants: [
            { options: { Size: 'S' }, stock: 1 },
            { options: { Size: 'S' }, stock: 2 },
          ],
        },
        'Two variants are the same: Size: S',
      ],
      [
        { options: ['A', 'B', 'C', 'D'].map((name) => ({ name, values: ['x'] })), variants: [] },
        'A product can have at most 3 options',
      ],
    ] as const) {
      const res = await api('PUT', `/api/products/${product.id}`, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
  });

  it('refuse an add without a variant, of a sold-out variant, and beyond a variant’s stock; checkout refuses a variant sold meanwhile', async () => {
    const { product, variant } = await createShirt('Refusals');
    const guest = new GuestClient(app);
    const none = await guest.request('POST', '/api/cart?action=add', { productId: product.id });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Choose a size');

    const colourFirst = await api('POST', '/api/products', {
      name: 'Scarf',
      description: 'Wool',
      price: 3000,
      category: 'Merchandise',
      options: [{ name: 'Colour', values: ['Red'] }],
      variants: [{ options: { Colour: 'Red' }, stock: 3 }],
    });
    const scarf = await guest.request('POST', '/api/cart?action=add', { productId: colourFirst.body.id });
    expect(scarf.body.message).toBe('Choose a colour');
    // A variant of another product is not this product's.
    const foreign = await guest.request('POST', '/api/cart?action=add', {
      productId: product.id,
      variantId: colourFirst.body.variants[0].id,
    });
    expect(foreign.status).toBe(404);

    const soldOut = await guest.request('POST', '/api/cart?action=add', {
      productId: product.id,
      variantId: variant('Size: S, Colour: Black').id,
    });
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.message).toBe('This product is currently out of stock.');

    const large = { productId: product.id, variantId: variant('Size: L, Colour: Black').id };
    expect((await guest.request('POST', '/api/cart?action=add', { ...large, quantity: 2 })).status).toBe(201);
    const short = await guest.request('POST', '/api/cart?action=add', large);
    expect(short.status).toBe(409);
    expect(short.body.message).toBe('Only 2 items available in stock');

    // Another shopper buys one of the two meanwhile: this checkout is short and refused.
    const other = new GuestClient(app);
    expect((await other.request('POST', '/api/cart?action=add', large)).status).toBe(201);
    expect((await other.checkout()).status).toBe(201);
    const refused = await guest.checkout();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Only 1 items available in stock');
    expect(await stockOf(app.services.db, product.id, large.variantId)).toBe(1);
  });

  it('sell exactly a variant’s stock to 50 concurrent checkouts, and no other variant’s', {
    timeout: 120_000,
  }, async () => {
    const { db } = app.services;
    const { product, variant } = await createShirt('Drop');
    const blue = variant('Size: L, Colour: Blue');
    const guests = Array.from({ length: 50 }, () => new GuestClient(app));
    for (const guest of guests)
      expect(
        (await guest.request('POST', '/api/cart?action=add', { productId: product.id, variantId: blue.id }))
          .status,
      ).toBe(201);
    const results = await Promise.all(
      guests.map((guest, i) => guest.checkout(undefined, `variant-drop-${i}`)),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    expect(await stockOf(db, product.id, blue.id)).toBe(0);
    expect(await stockOf(db, product.id, variant('Size: L, Colour: Black').id)).toBe(2);
    const sold = await db('order_items').where({ variant_id: blue.id }).sum({ n: 'quantity' }).first();
    expect(Number(sold?.n)).toBe(20);
  });

  it('offer their lowest price in the page’s Product JSON-LD, and show it “from” on the shop’s card', async () => {
    const res = await api('POST', '/api/products', {
      name: 'Priced apart',
      description: 'Each size at its own price.',
      price: 2500,
      category: 'Merchandise',
      options: [{ name: 'Size', values: ['S', 'L'] }],
      variants: [
        { options: { Size: 'S' }, stock: 3, price: 1900 },
        { options: { Size: 'L' }, stock: 3, price: 2100 },
      ],
    });
    const html = await (await fetch(`${app.url}/product/${res.body.id}`)).text();
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}';
    expect(JSON.parse(ld).offers.price).toBe('19.00');
    const shop = (await (await fetch(`${app.url}/shop?search=Priced`)).text()).replaceAll('<!-- -->', '');
    expect(shop).toContain('from $19.00');
    expect(shop).toContain('Choose options');
  });

  it('carry the variant’s label through cart, order, mail, admin and rebuild', async () => {
    const { db } = app.services;
    const { product, variant } = await createShirt('Label');
    const xl = variant('Size: XL, Colour: Blue');
    const guest = new GuestClient(app);
    const added = await guest.request('POST', '/api/cart?action=add', {
      productId: product.id,
      variantId: xl.id,
    });
    expect(added.body.item).toMatchObject({ productId: product.id, variantId: xl.id, quantity: 1 });
    const cart = await guest.request('GET', '/api/cart');
    expect(cart.body.cart.items).toEqual([
      expect.objectContaining({
        variantId: xl.id,
        variant: 'Size: XL, Colour: Blue',
        product: expect.objectContaining({ name: 'Label', price: 2800 }),
      }),
    ]);
    expect(cart.body.summary.totalPrice).toBe(2800);

    const placed = await guest.checkout({ ...validCheckout, customerEmail: 'label@example.com' });
    expect(placed.status).toBe(201);
    const mail = await smtp.waitFor((m) => m.to.includes('label@example.com'));
    expect(mail.text).toContain('1 × Label (Size: XL, Colour: Blue) — $28.00 each');

    const order = await api('GET', `/api/admin/orders/${placed.body.id}`);
    expect(order.body.items).toEqual([
      expect.objectContaining({ productName: 'Label', variant: 'Size: XL, Colour: Blue', priceAtTime: 2800 }),
    ]);
    const page = await fetch(`${app.url}/admin/orders/${placed.body.id}`, { headers: admin });
    expect((await page.text()).replaceAll('<!-- -->', '')).toContain('Label (Size: XL, Colour: Blue) × 1');

    await db('order_items').where({ order_id: placed.body.id }).update({ variant: null });
    await rebuildProjections(db);
    expect(
      await db('order_items').where({ order_id: placed.body.id }).first('variant', 'variant_id'),
    ).toEqual({
      variant: 'Size: XL, Colour: Blue',
      variant_id: xl.id,
    });
  });
});
