import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStock, stockOf } from '../../src/shop/stock.ts';
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
    const before = await db('products').where({ id: product.id }).first('updated_at');
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
    expect(await db('products').where({ id: product.id }).first('updated_at')).toEqual(before);
  });

  it("is not held up by an admin's uncommitted edit of the product: it sells at the committed price", async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: null, price: 1000 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id)).status).toBe(201);

    const edit = await db.transaction();
    await edit('products').where({ id: product.id }).update({ price: 1500 });
    try {
      const res = await guest.checkout();
      expect(res.status).toBe(201);
      const items = await db('order_items').where({ order_id: res.body.id }).select('price_at_time');
      expect(items).toEqual([{ price_at_time: 1000 }]);
    } finally {
      await edit.rollback();
    }
    expect(await stockOf(db, product.id)).toBeNull();
  });

  it('places the order again at a price committed after the cart was read, and takes stock made limited', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: null, price: 1000 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id)).status).toBe(201);

    // The edit waits on the cart row the checkout locks first, and commits before its stock statement.
    const cart = await db.transaction();
    await cart.raw('SELECT 1 FROM carts WHERE session_id = ? FOR UPDATE', [guest.sid]);
    const checkout = guest.checkout();
    await waitingOn('SELECT * FROM take_cart_lines');
    await db('products').where({ id: product.id }).update({ price: 1500 });
    await setStock(db, product.id, 3);
    await cart.commit();

    const res = await checkout;
    expect(res.status).toBe(201);
    const items = await db('order_items').where({ order_id: res.body.id }).select('price_at_time');
    expect(items).toEqual([{ price_at_time: 1500 }]);
    expect(await stockOf(db, product.id)).toBe(2);
  });
});
