import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainHotQueries } from '../../scripts/bench/hot-queries.ts';
import { type FulfilmentStatus, NO_SHIPPING } from '../../src/orders/fulfilment.ts';
import { listOrders } from '../../src/orders/lists.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { createProductFileRow, createProductRow, GuestClient, validCheckout } from '../support/shop.ts';

let app: TestApp;
let admin: Record<string, string>;
const ids: Record<string, number> = {};

async function adminOrder(id: number, action: string, body: unknown = {}) {
  const res = await fetch(`${app.url}/api/admin/orders/${id}?action=${action}`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, `${action} on order ${id}`).toBe(200);
}

async function placeOrder(fields: { digital?: boolean; shippingMethod?: string }): Promise<number> {
  const product = await createProductRow(app.services.db, { price: 2000, stock: null });
  if (fields.digital) await createProductFileRow(app.services.db, product.id, 'Field Guide');
  const guest = new GuestClient(app);
  await guest.add(product.id);
  const placed = await guest.checkout(
    fields.digital
      ? { customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' }
      : { ...validCheckout, shippingMethod: fields.shippingMethod ?? 'Standard' },
  );
  expect(placed.status).toBe(201);
  return placed.body.id;
}

async function listIds(query: string) {
  const res = await fetch(`${app.url}/api/admin/orders?${query}`, { headers: admin });
  const body = await res.json();
  return { status: res.status, body, ids: (body.orders ?? []).map((o: { id: number }) => o.id).sort() };
}

const sorted = (...names: string[]) => names.map((n) => ids[n]).sort();

beforeAll(async () => {
  app = await startTestApp();
  admin = (await signedInSession(app, { role: 'admin' })).headers;
  ids.unpaid = await placeOrder({});
  ids.paid = await placeOrder({ shippingMethod: 'Express' });
  await adminOrder(ids.paid, 'mark-paid');
  ids.shipped = await placeOrder({});
  await adminOrder(ids.shipped, 'mark-paid');
  await adminOrder(ids.shipped, 'ship', { carrier: 'UPS', trackingNumber: '1Z1' });
  ids.delivered = await placeOrder({});
  await adminOrder(ids.delivered, 'mark-paid');
  await adminOrder(ids.delivered, 'ship', { carrier: 'UPS', trackingNumber: '1Z2' });
  await adminOrder(ids.delivered, 'deliver');
  ids.cancelled = await placeOrder({});
  await adminOrder(ids.cancelled, 'cancel');
  ids.ebook = await placeOrder({ digital: true });
  await adminOrder(ids.ebook, 'mark-paid');
  ids.ebookUnpaid = await placeOrder({ digital: true });
}, 60_000);
afterAll(async () => {
  await app?.close();
});

describe('GET /api/admin/orders?fulfilment=', () => {
  it('lists physical orders by how far they got, and digital-only orders apart', async () => {
    const expected: Record<FulfilmentStatus | 'all', number[]> = {
      unfulfilled: sorted('unpaid', 'paid'),
      shipped: sorted('shipped'),
      delivered: sorted('delivered'),
      digital: sorted('ebook', 'ebookUnpaid'),
      all: Object.values(ids).sort(),
    };
    for (const [fulfilment, want] of Object.entries(expected)) {
      const listed = await listIds(`fulfilment=${fulfilment}`);
      expect(listed.status).toBe(200);
      expect(listed.ids, fulfilment).toEqual(want);
      expect(listed.body.pagination.total, fulfilment).toBe(want.length);
    }
    // A digital order is 'delivered' once paid, yet never counts as a delivered parcel.
    expect((await listIds(`status=delivered`)).ids).toEqual(sorted('delivered', 'ebook'));
  });

  it('combines with the other filters', async () => {
    expect((await listIds('fulfilment=unfulfilled&paymentStatus=paid')).ids).toEqual(sorted('paid'));
    expect((await listIds('fulfilment=digital&paymentStatus=unpaid')).ids).toEqual(sorted('ebookUnpaid'));
    expect((await listIds('fulfilment=shipped&status=processing')).ids).toEqual([]);
    expect((await listIds(`fulfilment=digital&search=${ids.ebook}`)).ids).toEqual(sorted('ebook'));
  });

  it('refuses an unknown or repeated fulfilment with 400 and a message', async () => {
    const unknown = await listIds('fulfilment=boxed');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('fulfilment must be one of unfulfilled, shipped, delivered, digital');
    const repeated = await listIds('fulfilment=shipped&fulfilment=digital');
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toBe('Query parameter fulfilment must be given once');
    expect((await fetch(`${app.url}/api/admin/orders?fulfilment=digital`)).status).toBe(401);
  });
});

describe('the Orders tab', () => {
  const page = async (path: string) => {
    const res = await fetch(`${app.url}${path}`, { headers: { cookie: admin.cookie } });
    expect(res.status, path).toBe(200);
    // React's markers between adjacent text nodes, out of the way of the text asserted.
    return (await res.text()).replaceAll('<!-- -->', '');
  };
  const listed = (html: string) =>
    [...html.matchAll(/href="\/admin\/orders\/(\d+)"/g)].map((m) => Number(m[1])).sort();

  it('filters by the fulfilment in its URL, without JavaScript', async () => {
    const html = await page('/admin?tab=orders&fulfilment=digital');
    expect(listed(html)).toEqual(sorted('ebook', 'ebookUnpaid'));
    expect(html).toMatch(/<option value="digital" selected="">Digital<\/option>/);
    expect(listed(await page('/admin?tab=orders&fulfilment=unfulfilled&payment=paid'))).toEqual(
      sorted('paid'),
    );
    // An unknown value in a hand-typed link shows every order rather than an error.
    expect(listed(await page('/admin?tab=orders&fulfilment=boxed'))).toEqual(Object.values(ids).sort());
  });

  it("shows the order's shipping method and cost, and its download grants", async () => {
    const parcel = await page(`/admin/orders/${ids.paid}`);
    expect(parcel).toMatch(/<span>Shipping \(Express\)<\/span><span>\$15\.00<\/span>/);
    const ebook = await page(`/admin/orders/${ids.ebook}`);
    expect(ebook).not.toContain('Shipping (');
    expect(ebook).toContain('Nothing ships: every item is a download.');
    expect(ebook).toMatch(/Field Guide \(field-guide\.pdf\): 0 of 5 downloads/);
    const shipped = await page(`/admin/orders/${ids.shipped}`);
    expect(shipped).toContain('Tracking (UPS):');
  });
});

describe('the fulfilment filters on many orders', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    // Mostly old delivered parcels, a tenth of them downloads: the filters look for the few.
    await t.db.raw(
      `INSERT INTO orders (id, email, first_name, last_name, address, city, postal_code, country,
         total_amount, status, payment_status, shipping_method, version, created_at, updated_at)
       SELECT g, 'c' || g || '@example.com', 'C', 'D', 'A', 'B', '1', 'X', 100,
              CASE WHEN g % 10 = 0 THEN 'delivered' WHEN g % 50 = 1 THEN 'processing'
                   WHEN g % 50 = 3 THEN 'shipped' WHEN g % 50 = 7 THEN 'pending' ELSE 'delivered' END,
              'paid', CASE WHEN g % 10 = 0 THEN ? ELSE 'Standard' END, 1,
              now() - make_interval(mins => g), now()
       FROM generate_series(1, 20000) g`,
      [NO_SHIPPING],
    );
    await t.db.raw('VACUUM ANALYZE orders');
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
  });

  it('reads them through an index, not the whole table', async () => {
    const filters: FulfilmentStatus[] = ['unfulfilled', 'shipped', 'digital'];
    const explained = await explainHotQueries(
      t.db,
      filters.map((fulfilment) => ({ name: fulfilment, run: (db) => listOrders(db, { fulfilment }) })),
    );
    for (const query of explained)
      for (const statement of query.statements)
        expect(statement.largeSeqScans, `${query.name}: ${statement.plan}`).toEqual([]);
    expect((await listOrders(t.db, { fulfilment: 'digital' })).pagination.total).toBe(2000);
  });
});
