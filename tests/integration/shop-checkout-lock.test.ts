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

describe('placing an order takes the product row last', () => {
  it('waits for a locked product only after writing the order, and places it again at a price changed meanwhile', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { stock: 5, price: 1000 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id)).status).toBe(201);

    // An admin's edit of the product, not yet committed, holds its row.
    const edit = await db.transaction();
    await edit('products').where({ id: product.id }).update({ price: 1500 });
    const checkout = guest.checkout();
    const pid = await waitingOn('update "products"');
    // Everything else of the order is written by then: the row lock is the transaction's last.
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

    // The reservation saw the new price, so the order read at the old one was placed again.
    const res = await checkout;
    expect(res.status).toBe(201);
    const items = await db('order_items').where({ order_id: res.body.id }).select('price_at_time');
    expect(items).toEqual([{ price_at_time: 1500 }]);
    expect((await db('products').where({ id: product.id }).first('stock')).stock).toBe(4);
    // The first attempt left nothing behind.
    expect(await db('orders').count({ n: '*' }).first()).toEqual({ n: 1 });
    expect(
      await db('outbox').where({ job_name: 'orders.send-confirmation' }).count({ n: '*' }).first(),
    ).toEqual({
      n: 1,
    });
  });
});
