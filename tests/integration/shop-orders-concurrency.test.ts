import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import type { Db } from '../../src/db/knex.ts';
import { fold, type OrderEvent } from '../../src/orders/domain.ts';
import { rebuildProjections } from '../../src/orders/store.ts';
import { stockOf } from '../../src/shop/stock.ts';
import { startTestApp } from '../support/app.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';

const run = promisify(execFile);

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

/** Every projected row as text, in id order: equal dumps mean byte-for-byte equal projections. */
async function dump(db: Db): Promise<string> {
  const orders = await db.raw('SELECT row_to_json(o)::text AS j FROM orders o ORDER BY id');
  const items = await db.raw('SELECT row_to_json(i)::text AS j FROM order_items i ORDER BY id');
  return [...orders.rows, ...items.rows].map((r: { j: string }) => r.j).join('\n');
}

describe.each(['postgres', 'redis'] as const)('200 parallel checkouts on the %s queue', (queue) => {
  it.skipIf(queue === 'redis' && !inject('redisUrl'))(
    'sell exactly the 50 in stock, agree with the events, mail each order once and rebuild identically',
    { timeout: 180_000 },
    async () => {
      const app = await startTestApp({
        queue,
        withWorker: true,
        env: { CHECKOUT_RATE_LIMIT: '100000', DATABASE_POOL_MAX: '20' },
      });
      try {
        const { db } = app.services;
        const product = await createProductRow(db, { stock: 50, price: 1999, name: 'Limited print' });
        const guests = Array.from({ length: 200 }, () => new GuestClient(app));
        for (let i = 0; i < guests.length; i += 50) {
          await Promise.all(guests.slice(i, i + 50).map((g) => g.add(product.id)));
        }
        const results = await Promise.all(
          guests.map((g, i) => g.checkout(undefined, `concurrency-key-${i}`)),
        );
        const statuses = results.map((r) => r.status);
        expect(statuses.filter((s) => s === 201)).toHaveLength(50);
        expect(statuses.filter((s) => s === 409)).toHaveLength(150);
        for (const r of results.filter((x) => x.status === 409)) {
          expect(r.body.message).toBe('Only 0 items available in stock');
        }

        expect(await stockOf(db, product.id)).toBe(0);
        expect(await db('stock_levels').where('stock', '<', 0).count({ n: '*' }).first()).toEqual({ n: 0 });
        expect((await db('orders').count({ n: '*' }).first())?.n).toBe(50);
        expect((await db('order_items').sum({ q: 'quantity' }).first())?.q).toBe(50);

        // The worker mails every order once, through this backend.
        const confirmed = await waitFor(
          async () =>
            (await db('order_events').where({ type: 'ConfirmationEmailSent' }).count({ n: '*' }).first())?.n,
          (n) => n === 50,
          // Under a fully loaded machine the worker has taken over a minute for the 50 mails.
          120_000,
        );
        expect(confirmed).toBe(50);
        const mailLines = app.logs.filter((l) => l.msg === 'mail (no SMTP configured)');
        expect(mailLines).toHaveLength(50);
        await app.workers?.close();

        // Every projected order equals the fold of its own events.
        const events: { order_id: number; type: OrderEvent['type']; data: OrderEvent['data'] }[] = await db(
          'order_events',
        )
          .orderBy(['order_id', 'version'])
          .select('order_id', 'type', 'data');
        const byOrder = Map.groupBy(events, (e) => e.order_id);
        expect(byOrder.size).toBe(50);
        for (const row of await db('orders').select()) {
          const state = fold(
            (byOrder.get(row.id) ?? []).map((e) => ({ type: e.type, data: e.data }) as OrderEvent),
          );
          expect(row).toMatchObject({
            total_amount: state.placed?.totalAmount,
            status: state.status,
            email: state.placed?.email,
            version: state.version,
            confirmation_sent: true,
          });
        }

        const before = await dump(db);
        // Damage the projections: only the events can bring them back.
        await db('order_items').where('id', '<', 20).delete();
        await db('orders').update({ status: 'cancelled', email: 'wrong@example.com' });
        expect(await dump(db)).not.toBe(before);
        if (queue === 'postgres') {
          // The npm script itself, in its own process, on this database.
          await run(path.resolve('node_modules/.bin/node'), ['src/cli/orders-rebuild.ts'], {
            env: { ...process.env, DATABASE_URL: app.database.url, LOG_LEVEL: 'warn', NODE_ENV: 'test' },
          });
        } else {
          await rebuildProjections(db);
        }
        expect(await dump(db)).toBe(before);
      } finally {
        await app.close();
      }
    },
  );
});
