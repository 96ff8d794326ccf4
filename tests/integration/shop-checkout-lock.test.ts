import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStock, stockOf, takeLastLineAndCommit } from '../../src/shop/stock.ts';
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

describe('placing an order takes the stock row last', () => {
  it('waits for a locked stock row only after writing the order, and never for the product row', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: 5, price: 1000 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id)).status).toBe(201);

    // An admin's edit of the product and of its stock, not yet committed, holds both rows.
    const edit = await db.transaction();
    await edit('products').where({ id: product.id }).update({ description: 'Edited' });
    await setStock(edit, product.id, 3);
    const checkout = guest.checkout();
    // The order's last limited line is taken by take_last_stock_line, sent with the COMMIT.
    const pid = await waitingOn('SELECT take_last_stock_line(');
    // Everything else of the order is written by then: the stock row's lock is the transaction's last.
    const { rows: writes } = await db.raw(
      `SELECT c.relname FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
       WHERE l.pid = ? AND l.mode = 'RowExclusiveLock' AND c.relname IN ('order_events', 'orders', 'order_items', 'outbox')
       ORDER BY 1`,
      [pid],
    );
    expect(writes.map((r: { relname: string }) => r.relname)).toEqual([
      'order_events',
      'order_items',
      'orders',
      'outbox',
    ]);
    await edit.commit();

    // The decrement saw the stock the edit set.
    const res = await checkout;
    expect(res.status).toBe(201);
    expect(await stockOf(db, product.id)).toBe(2);
    expect(await db('orders').count({ n: '*' }).first()).toEqual({ n: 1 });
    expect(
      await db('outbox').where({ job_name: 'orders.send-confirmation' }).count({ n: '*' }).first(),
    ).toEqual({
      n: 1,
    });
  });
});

describe('the last limited line, taken with the commit', () => {
  /** Holds the guest's cart row so that the checkout's read waits, then commits `change` before letting it go. */
  async function changedAfterTheRead(guest: GuestClient, change: () => Promise<void>) {
    const { db } = app.services;
    const cart = await db.transaction();
    await cart.raw('SELECT 1 FROM carts WHERE session_id = ? FOR UPDATE', [guest.sid]);
    const checkout = guest.checkout();
    // The read's snapshot is taken before the change commits; its stock statement comes after.
    await waitingOn('SELECT * FROM take_cart_lines');
    await change();
    await cart.commit();
    return checkout;
  }

  it('places the order again at a price committed after the cart was read', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: 5, price: 1000 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id)).status).toBe(201);
    const res = await changedAfterTheRead(guest, async () => {
      await db('products').where({ id: product.id }).update({ price: 1500 });
    });
    expect(res.status).toBe(201);
    expect(await db('order_items').where({ order_id: res.body.id }).select('price_at_time')).toEqual([
      { price_at_time: 1500 },
    ]);
    expect(await stockOf(db, product.id)).toBe(4);
  });

  it('refuses with the stock message when the row ran short after the cart was read, and keeps the cart', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: 5, price: 1000 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id, 2)).status).toBe(201);
    const ordersBefore = await db('orders').count({ n: '*' }).first();
    const res = await changedAfterTheRead(guest, () => setStock(db, product.id, 1));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Only 1 items available in stock');
    expect(await stockOf(db, product.id)).toBe(1);
    expect(await db('orders').count({ n: '*' }).first()).toEqual(ordersBefore);
    const cart = await guest.request('GET', '/api/cart');
    expect(
      cart.body.cart.items.map((i: { productId: number; quantity: number }) => [i.productId, i.quantity]),
    ).toEqual([[product.id, 2]]);
  });

  it('commits the take at once, so other shoppers see it, and leaves a transaction whose commit flushes the WAL', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: 5, price: 1000 });
    await db.transaction(async (trx) => {
      await takeLastLineAndCommit(
        trx,
        { productId: product.id, quantity: 2 },
        { name: product.name, price: 1000, variant: null },
      );
      // Committed: another connection sees the stock taken (and so may take the next units).
      expect(await stockOf(db, product.id)).toBe(3);
      // What knex commits next has a transaction id and commits synchronously: its commit record
      // is written after the order's, and the answer waits for the WAL's flush up to it.
      const { rows } = await trx.raw(
        "SELECT pg_current_xact_id_if_assigned() IS NOT NULL AS has_id, current_setting('synchronous_commit') AS sync",
      );
      expect(rows[0]).toEqual({ has_id: true, sync: 'on' });
    });
  });
});
