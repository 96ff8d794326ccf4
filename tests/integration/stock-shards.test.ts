import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.ts';
import { releaseStock, setStock, stockOf } from '../../src/shop/stock.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
/** 20 connections: the takes below run side by side. */
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, 20);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

async function newProduct(name: string): Promise<number> {
  const [row] = await db('products')
    .insert({ name, description: 'd', price: 900, category: 'Merchandise' })
    .returning('id');
  return row.id;
}

const shards = async (productId: number) =>
  (
    await db('stock_levels').where({ product_id: productId, variant_id: 0 }).orderBy('shard').select('stock')
  ).map((row) => row.stock as number | null);

/** One order's take of `quantity` units, in its own transaction. */
const take = (productId: number, quantity: number) =>
  db.transaction(async (trx) => {
    const { rows } = await trx.raw('SELECT take_stock(?, 0, ?) AS ok', [productId, quantity]);
    return rows[0].ok as boolean;
  });

/** The low-stock alerts written for a product, in order. */
const alerts = async (productId: number) =>
  (
    await db('outbox')
      .where({ job_name: 'maintenance.low-stock-alert' })
      .whereRaw("(payload->>'productId')::int = ?", [productId])
      .orderBy('id')
      .select('payload')
  ).map((row) => `${row.payload.level} ${row.payload.stock}`);

it('keeps a stock above 100 as a reserve of 11 in shard 0 and the rest over seven shards, read as its sum', async () => {
  const id = await newProduct('Sharded mug');
  await setStock(db, id, 5000);
  expect(await shards(id)).toEqual([11, 713, 713, 713, 713, 713, 712, 712]);
  expect(await stockOf(db, id)).toBe(5000);
  await setStock(db, id, 100);
  expect(await shards(id)).toEqual([100]);
  await setStock(db, id, 101);
  expect(await shards(id)).toEqual([11, 13, 13, 13, 13, 13, 13, 12]);
  await setStock(db, id, null);
  expect(await shards(id)).toEqual([null]);
  expect(await stockOf(db, id)).toBeNull();
  expect(await take(id, 1)).toBe(false);
});

it('sells exactly a sharded stock to parallel takes and alerts once at 10 and once at 0', async () => {
  const id = await newProduct('Sharded poster');
  await setStock(db, id, 300);
  const results = await Promise.all(Array.from({ length: 400 }, () => take(id, 1)));
  expect(results.filter(Boolean)).toHaveLength(300);
  expect(await shards(id)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  expect(await alerts(id)).toEqual(['low 10', 'out 0']);
});

it('takes a line of several units across shards, the reserve last, and never sells short', async () => {
  const id = await newProduct('Sharded badge');
  await setStock(db, id, 120);
  expect(await shards(id)).toEqual([11, 16, 16, 16, 16, 15, 15, 15]);
  // No shard holds 50: the take locks them all and takes from shards 1–7 first.
  expect(await take(id, 50)).toBe(true);
  expect(await stockOf(db, id)).toBe(70);
  expect((await shards(id))[0]).toBe(11);
  expect(await take(id, 71)).toBe(false);
  expect(await stockOf(db, id)).toBe(70);

  // 3 units each, side by side: 150 units are 50 orders, and nothing is left over.
  await setStock(db, id, 150);
  const results = await Promise.all(Array.from({ length: 80 }, () => take(id, 3)));
  expect(results.filter(Boolean)).toHaveLength(50);
  expect(await stockOf(db, id)).toBe(0);
  expect(await alerts(id)).toEqual(['low 9', 'out 0']);

  // Units given back go to shard 0.
  await db.transaction((trx) => releaseStock(trx, [{ productId: id, quantity: 4 }]));
  expect(await shards(id)).toEqual([4, 0, 0, 0, 0, 0, 0, 0]);
});
