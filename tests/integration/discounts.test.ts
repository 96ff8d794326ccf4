import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.ts';
import { expireOrder } from '../../src/orders/payments.ts';
import { rebuildProjections } from '../../src/orders/store.ts';
import { DISCOUNT_MESSAGES } from '../../src/shop/discount-schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';

let app: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp({ env: { CHECKOUT_RATE_LIMIT: '100000', DATABASE_POOL_MAX: '20' } });
  admin = { ...(await signedInSession(app, { role: 'admin' })).headers, 'content-type': 'application/json' };
});
afterAll(async () => {
  await app?.close();
});

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: admin,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function createCode(fields: Record<string, unknown>) {
  const res = await api('POST', '/api/admin/discounts', { type: 'percent', value: 10, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; code: string };
}

/** A guest with one product in the cart, checking out with the code. */
async function buyWith(
  productId: number,
  code: string,
  fields: Partial<typeof validCheckout> = {},
): Promise<{ status: number; body: Record<string, unknown> & { errors?: Record<string, string> } }> {
  const guest = new GuestClient(app);
  await guest.add(productId);
  return guest.checkout({ ...validCheckout, ...fields, discountCode: code });
}

/** Every projected row as text, in id order. */
async function dump(db: Db): Promise<string> {
  const orders = await db.raw('SELECT row_to_json(o)::text AS j FROM orders o ORDER BY id');
  const items = await db.raw('SELECT row_to_json(i)::text AS j FROM order_items i ORDER BY id');
  return [...orders.rows, ...items.rows].map((r: { j: string }) => r.j).join('\n');
}

const hour = 3_600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

describe('discount codes', () => {
  it('are created, listed, changed, deactivated and deleted by the admin API with the schema’s messages', async () => {
    const refused = async (fields: Record<string, unknown>, message: string) => {
      const res = await api('POST', '/api/admin/discounts', {
        code: 'OK1',
        type: 'fixed',
        value: 100,
        ...fields,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    };
    await refused({ code: 'two words' }, DISCOUNT_MESSAGES.code);
    await refused({ type: 'bogo' }, DISCOUNT_MESSAGES.type);
    await refused({ value: 0 }, DISCOUNT_MESSAGES.value);
    await refused({ type: 'percent', value: 101 }, DISCOUNT_MESSAGES.percent);
    await refused({ usageLimit: -1 }, DISCOUNT_MESSAGES.limit);
    await refused({ startsAt: iso(hour), endsAt: iso(0) }, DISCOUNT_MESSAGES.endBeforeStart);
    await refused({ startsAt: 'soon' }, DISCOUNT_MESSAGES.date);
    await refused({ categories: ['Food'] }, DISCOUNT_MESSAGES.categories);
    await refused({ productIds: 'one' }, DISCOUNT_MESSAGES.productIds);

    const created = await api('POST', '/api/admin/discounts', {
      code: 'Summer-5',
      type: 'fixed',
      value: 500,
      usageLimit: 10,
      perEmailLimit: 1,
      minSubtotal: 1000,
      categories: ['Books'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: 'Summer-5',
      type: 'fixed',
      value: 500,
      usageLimit: 10,
      perEmailLimit: 1,
      minSubtotal: 1000,
      productIds: null,
      categories: ['Books'],
      active: true,
      uses: 0,
      revenue: 0,
    });
    expect(
      (await api('POST', '/api/admin/discounts', { code: 'SUMMER-5', type: 'fixed', value: 1 })).body,
    ).toEqual({
      message: DISCOUNT_MESSAGES.codeTaken,
    });
    const { id } = created.body;
    const list = await api('GET', '/api/admin/discounts');
    expect(list.body.discounts.map((d: { code: string }) => d.code)).toContain('Summer-5');

    const patched = await api('PATCH', `/api/admin/discounts/${id}`, { value: 700, type: 'percent' });
    expect(patched.body.message).toBe(DISCOUNT_MESSAGES.percent);
    const changed = await api('PATCH', `/api/admin/discounts/${id}`, { value: 700, active: false });
    expect(changed.body).toMatchObject({ value: 700, active: false, categories: ['Books'] });
    expect((await api('PATCH', '/api/admin/discounts/999999', { active: false })).status).toBe(404);
    expect((await api('DELETE', `/api/admin/discounts/${id}`)).status).toBe(204);
    expect((await api('GET', `/api/admin/discounts/${id}`)).body).toEqual({
      message: DISCOUNT_MESSAGES.notFound,
    });
  });

  it('are created, listed and deactivated on the admin Discounts screen, a refused form keeping what was typed', async () => {
    const form = async (fields: Record<string, string>, categories: string[] = []) => {
      const body = new URLSearchParams(fields);
      for (const c of categories) body.append('categories', c);
      const res = await fetch(`${app.url}/admin?tab=discounts`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      return (await res.text()).replaceAll('<!-- -->', '');
    };
    const fields = {
      intent: 'create-discount',
      code: 'SCREEN10',
      type: 'percent',
      value: '250',
      minSubtotal: '',
      usageLimit: '5',
      perEmailLimit: '',
      startsAt: '',
      endsAt: '2099-01-01T00:00',
      productIds: '',
    };
    const refused = await form(fields, ['Courses']);
    expect(refused).toContain(DISCOUNT_MESSAGES.percent);
    expect(refused).toContain('value="SCREEN10"');
    expect(refused).toMatch(/name="categories" checked="" value="Courses"/);
    expect(await form({ ...fields, value: '10' }, ['Courses'])).toContain(DISCOUNT_MESSAGES.created);
    const page = (
      await (await fetch(`${app.url}/admin?tab=discounts`, { headers: admin })).text()
    ).replaceAll('<!-- -->', '');
    expect(page).toContain('SCREEN10');
    expect(page).toContain('Uses: 0 of 5');
    expect(page).toContain('Revenue: $0.00');
    const row = await app.services.db('discount_codes').where({ code: 'SCREEN10' }).first();
    expect(row).toMatchObject({ value: 10, usage_limit: 5, categories: ['Courses'] });
    expect(row.ends_at.toISOString()).toBe('2099-01-01T00:00:00.000Z');
    expect(await form({ intent: 'deactivate-discount', id: String(row.id) })).toContain(
      DISCOUNT_MESSAGES.deactivated,
    );
    expect((await app.services.db('discount_codes').where({ id: row.id }).first()).active).toBe(false);

    // Amounts are typed in the shop's currency and stored in cents.
    const fixed = { ...fields, code: 'FIXED1250', type: 'fixed', value: '12.505', minSubtotal: '25' };
    expect(await form(fixed)).toContain(DISCOUNT_MESSAGES.valueAmount);
    expect(await form({ ...fixed, minSubtotal: '-1' })).toContain(DISCOUNT_MESSAGES.minSubtotalAmount);
    expect(await form({ ...fixed, value: '12.50' })).toContain(DISCOUNT_MESSAGES.created);
    expect(await app.services.db('discount_codes').where({ code: 'FIXED1250' }).first()).toMatchObject({
      value: 1250,
      min_subtotal: 2500,
    });
  });

  it('are priced by the server, and every refusal is said at checkout', async () => {
    const { db } = app.services;
    const book = await createProductRow(db, { category: 'Books', price: 2000, stock: null });
    const mug = await createProductRow(db, { category: 'Merchandise', price: 1000, stock: null });
    await createCode({ code: 'BOOKS10', categories: ['Books'] });
    await createCode({ code: 'OLD', startsAt: iso(-48 * hour), endsAt: iso(-hour) });
    await createCode({ code: 'LATER', startsAt: iso(hour) });
    await createCode({ code: 'COURSES', categories: ['Courses'] });
    await createCode({ code: 'BIG', minSubtotal: 100_000 });
    await createCode({ code: 'ONEUSE', usageLimit: 1 });
    await createCode({ code: 'ONCE', perEmailLimit: 1 });
    const off = await createCode({ code: 'OFF' });
    await api('PATCH', `/api/admin/discounts/${off.id}`, { active: false });

    // 10% of the book only; the client's own amounts are ignored.
    const guest = new GuestClient(app);
    await guest.add(book.id);
    await guest.add(mug.id);
    const placed = await guest.checkout({
      ...validCheckout,
      discountCode: 'books10',
      discountAmount: '2900',
      totalAmount: '1',
    } as never);
    expect(placed.status).toBe(201);
    expect(placed.body.totalAmount).toBe(2800);
    expect(await db('orders').where({ id: placed.body.id }).first()).toMatchObject({
      discount_code: 'BOOKS10',
      discount_amount: 200,
      total_amount: 2800,
    });
    const [event] = await db('order_events').where({ order_id: placed.body.id, type: 'OrderPlaced' });
    expect(event.data.discount).toMatchObject({ code: 'BOOKS10', amount: 200 });
    const detail = await api('GET', `/api/admin/orders/${placed.body.id}`);
    expect(detail.body.order).toMatchObject({
      discountCode: 'BOOKS10',
      discountAmount: 200,
      totalAmount: 2800,
    });
    const adminPage = await (
      await fetch(`${app.url}/admin/orders/${placed.body.id}`, { headers: admin })
    ).text();
    expect(adminPage.replaceAll('<!-- -->', '')).toContain('Discount (BOOKS10)');

    const refusal = async (code: string, message: string, fields: Partial<typeof validCheckout> = {}) => {
      const res = await buyWith(book.id, code, fields);
      expect(res.status, code).toBe(400);
      expect(res.body.errors?.discountCode, code).toBe(message);
    };
    await refusal('NOPE', DISCOUNT_MESSAGES.unknown);
    await refusal('OFF', DISCOUNT_MESSAGES.unknown);
    await refusal('OLD', DISCOUNT_MESSAGES.expired);
    await refusal('LATER', DISCOUNT_MESSAGES.notStarted);
    await refusal('COURSES', DISCOUNT_MESSAGES.notApplicable);
    await refusal('BIG', DISCOUNT_MESSAGES.minSubtotal('$1,000.00'));
    expect((await buyWith(book.id, 'ONEUSE')).status).toBe(201);
    await refusal('ONEUSE', DISCOUNT_MESSAGES.usageLimit);
    expect((await buyWith(book.id, 'ONCE', { customerEmail: 'once@example.com' })).status).toBe(201);
    await refusal('ONCE', DISCOUNT_MESSAGES.perEmailLimit, { customerEmail: 'ONCE@example.com' });
    expect((await buyWith(book.id, 'ONCE', { customerEmail: 'twice@example.com' })).status).toBe(201);
  });

  it('is applied on the checkout page by a plain form post, keeping every typed field', async () => {
    const { db } = app.services;
    const book = await createProductRow(db, { category: 'Books', price: 3000, stock: null });
    await createCode({ code: 'FORM5', type: 'fixed', value: 500 });
    await createCode({ code: 'GONE', startsAt: iso(-48 * hour), endsAt: iso(-hour) });
    const guest = new GuestClient(app);
    await guest.add(book.id);
    const post = async (fields: Record<string, string>) => {
      const res = await fetch(`${app.url}/checkout`, {
        method: 'POST',
        headers: {
          'x-session-id': guest.sid ?? '',
          origin: app.url,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(fields),
      });
      return (await res.text()).replaceAll('<!-- -->', '');
    };
    const typed = {
      customerName: 'Grace Hopper',
      customerEmail: 'grace@example.com',
      address: '1 Navy Yard',
    };
    const applied = await post({ ...typed, discountCode: 'form5', intent: 'apply-discount' });
    expect(applied).toContain('Discount (FORM5)');
    expect(applied).toMatch(/Discount \(FORM5\)<\/span><span>−\$5\.00[\s\S]*Total<\/span><span>\$25\.00/);
    expect(applied).toContain('value="Grace Hopper"');
    expect(applied).toContain('value="1 Navy Yard"');
    expect(applied).toContain('value="form5"');

    const expired = await post({ ...typed, discountCode: 'GONE', intent: 'apply-discount' });
    expect(expired).toContain(DISCOUNT_MESSAGES.expired);
    expect(expired).toContain('value="grace@example.com"');
    expect(expired).not.toContain('Discount (GONE)');

    // Placing the order with the code (the rest of the address typed now).
    const confirmed = await post({
      ...validCheckout,
      customerEmail: 'grace@example.com',
      discountCode: 'FORM5',
    });
    expect(confirmed).toContain('Order Confirmed!');
    expect(confirmed).toContain('<dt>Total</dt><dd>$25.00</dd>');
  });

  it('admits exactly 10 of 50 concurrent checkouts on a code with 10 uses left, and holds the per-email limit', {
    timeout: 120_000,
  }, async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { price: 1500, stock: null });
    const code = await createCode({ code: 'RUSH', usageLimit: 12 });
    for (const email of ['early1@example.com', 'early2@example.com'])
      expect((await buyWith(product.id, 'RUSH', { customerEmail: email })).status).toBe(201);

    const guests = Array.from({ length: 50 }, () => new GuestClient(app));
    for (let i = 0; i < guests.length; i += 25)
      await Promise.all(guests.slice(i, i + 25).map((g) => g.add(product.id)));
    const results = await Promise.all(
      guests.map((g, i) =>
        g.checkout({
          ...validCheckout,
          customerEmail: `rush${i}@example.com`,
          discountCode: 'RUSH',
        } as never),
      ),
    );
    const admitted = results.filter((r) => r.status === 201);
    expect(admitted).toHaveLength(10);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(400);
      expect(r.body.message).toContain(DISCOUNT_MESSAGES.usageLimit);
    }
    expect((await api('GET', `/api/admin/discounts/${code.id}`)).body.uses).toBe(12);
    expect(await db('orders').where({ discount_code: 'RUSH' }).count({ n: '*' }).first()).toEqual({ n: 12 });

    // One address, twenty tabs at once, a limit of 2 per address.
    await createCode({ code: 'PERMAIL', perEmailLimit: 2 });
    const tabs = Array.from({ length: 20 }, () => new GuestClient(app));
    await Promise.all(tabs.map((g) => g.add(product.id)));
    const same = await Promise.all(
      tabs.map((g, i) =>
        g.checkout({
          ...validCheckout,
          customerEmail: i % 2 ? 'Same@Example.com' : 'same@example.com',
          discountCode: 'PERMAIL',
        } as never),
      ),
    );
    expect(same.filter((r) => r.status === 201)).toHaveLength(2);
    for (const r of same.filter((x) => x.status !== 201))
      expect(r.body.message).toContain(DISCOUNT_MESSAGES.perEmailLimit);
  });

  it('gives the use back when an unpaid order expires or is cancelled; uses, revenue and the rebuild agree', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { price: 4000, stock: null });
    const code = await createCode({ code: 'LAST1', type: 'fixed', value: 1000, usageLimit: 1 });
    const first = await buyWith(product.id, 'LAST1', { customerEmail: 'first@example.com' });
    expect(first.status).toBe(201);
    expect((await buyWith(product.id, 'LAST1')).body.errors?.discountCode).toBe(DISCOUNT_MESSAGES.usageLimit);

    expect(
      await expireOrder(app.services, first.body.id as number, new Date(Date.now() + 30 * 24 * hour)),
    ).toBe(true);
    expect((await api('GET', `/api/admin/discounts/${code.id}`)).body.uses).toBe(0);

    const second = await buyWith(product.id, 'LAST1', { customerEmail: 'second@example.com' });
    expect(second.status).toBe(201);
    expect((await api('POST', `/api/admin/orders/${second.body.id}?action=cancel`, {})).status).toBe(200);
    expect((await api('GET', `/api/admin/discounts/${code.id}`)).body.uses).toBe(0);

    const third = await buyWith(product.id, 'LAST1', { customerEmail: 'third@example.com' });
    expect(third.body.totalAmount).toBe(3000);
    expect((await api('POST', `/api/admin/orders/${third.body.id}?action=mark-paid`, {})).status).toBe(200);
    // A paid order that is cancelled keeps its use: the code was spent on a sale.
    expect((await api('POST', `/api/admin/orders/${third.body.id}?action=cancel`, {})).status).toBe(200);
    expect((await api('GET', `/api/admin/discounts/${code.id}`)).body).toMatchObject({ uses: 1 });
    expect((await api('DELETE', `/api/admin/discounts/${code.id}`)).body.message).toBe(
      DISCOUNT_MESSAGES.usedCannotDelete,
    );

    const fourthCode = await createCode({ code: 'PAID', type: 'fixed', value: 500 });
    const fourth = await buyWith(product.id, 'PAID');
    await api('POST', `/api/admin/orders/${fourth.body.id}?action=mark-paid`, {});
    expect((await api('GET', `/api/admin/discounts/${fourthCode.id}`)).body).toMatchObject({
      uses: 1,
      revenue: 3500,
    });

    const before = await dump(db);
    const uses = await db('discount_uses').orderBy('order_id');
    await rebuildProjections(db);
    expect(await dump(db)).toBe(before);
    expect(await db('discount_uses').orderBy('order_id')).toEqual(uses);
    expect(
      (await api('GET', '/api/admin/discounts')).body.discounts.find(
        (d: { code: string }) => d.code === 'PAID',
      ),
    ).toMatchObject({ uses: 1, revenue: 3500 });
  });
});

describe('discount codes with card payments', () => {
  const card = setUpCardPaymentsApp('whsec_discounts');

  it('asks Stripe for the discounted total, as one line naming the code', async () => {
    const { db } = card.app.services;
    const mug = await createProductRow(db, { category: 'Merchandise', price: 2500, stock: null });
    await db('discount_codes').insert({ code: 'CARD20', type: 'percent', value: 20 });
    const guest = new GuestClient(card.app);
    await guest.add(mug.id, 2);
    const placed = await guest.checkout({
      ...validCheckout,
      shippingMethod: 'Express',
      discountCode: 'CARD20',
    });
    expect(placed.status).toBe(201);
    // $50.00 of mugs less 20%, plus Express at $15.00.
    expect(placed.body.totalAmount).toBe(5500);
    const [session] = [...card.stripe.sessions.values()];
    expect(session.line_items_sent).toEqual([
      { name: `Order #${placed.body.id} (discount code CARD20: −$10.00)`, unit_amount: 5500, quantity: 1 },
    ]);
    expect(session.amount_total).toBe(5500);
  });
});
