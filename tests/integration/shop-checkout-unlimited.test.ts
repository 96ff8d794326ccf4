import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** The backend of a statement waiting for a row lock, once it waits. */
async function waitingOn(statementStart: string): Promise<number> {
  const { db } = app.services;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { rows } = await db.raw(
      "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE ? || '%'",
      [statementStart],
    );
    if (rows.length) return rows[0].pid;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no statement "${statementStart}…" waited for a lock`);
}

describe('placing an order of a product with unlimited stock', () => {
  it('does not write the product row, and orders of it hold it together', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: null, price: 1000 });
    const before = await db('products').where({ id: product.id }).first('updated_at', 'stock');
    const guests = [new GuestClient(app), new GuestClient(app)];
    for (const guest of guests) expect((await guest.add(product.id)).status).toBe(201);

    // Another transaction's share of the row (as an order's) does not hold an order up.
    const other = await db.transaction();
    await other.raw('SELECT 1 FROM products WHERE id = ? FOR SHARE', [product.id]);
    const checkouts = Promise.all(guests.map((guest) => guest.checkout()));
    const first = await Promise.race([
      checkouts,
      new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000)),
    ]);
    await other.commit();
    expect(first).not.toBe('waited');
    expect((await checkouts).map((res) => res.status)).toEqual([201, 201]);
    expect(await db('products').where({ id: product.id }).first('updated_at', 'stock')).toEqual(before);
  });

  it("waits for an admin's uncommitted edit, and places the order again at the price it set", async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: null, price: 1000 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id)).status).toBe(201);

    const edit = await db.transaction();
    await edit('products').where({ id: product.id }).update({ price: 1500 });
    const checkout = guest.checkout();
    await waitingOn('SELECT name, price FROM products');
    await edit.commit();

    const res = await checkout;
    expect(res.status).toBe(201);
    const items = await db('order_items').where({ order_id: res.body.id }).select('price_at_time');
    expect(items).toEqual([{ price_at_time: 1500 }]);
    expect((await db('products').where({ id: product.id }).first('stock')).stock).toBeNull();
  });

  it('takes the stock when an edit made it limited before the order held the row', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: null, price: 1000 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id)).status).toBe(201);

    const edit = await db.transaction();
    await edit('products').where({ id: product.id }).update({ stock: 3 });
    const checkout = guest.checkout();
    await waitingOn('SELECT name, price FROM products');
    await edit.commit();

    expect((await checkout).status).toBe(201);
    expect((await db('products').where({ id: product.id }).first('stock')).stock).toBe(2);
  });
});
