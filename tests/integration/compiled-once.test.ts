import { afterAll, beforeAll, expect, it } from 'vitest';
import { compiledOnce, compiledOnceFrom, SqlPart } from '../../src/db/knex.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

it("sends a statement compiled at its first call with each later call's own values, in their places", async () => {
  const { db } = database;
  await db.raw('CREATE TABLE tags (name text NOT NULL, slug text PRIMARY KEY)');
  await db('tags').insert([
    { name: 'Alpha', slug: 'alpha' },
    { name: 'Beta', slug: 'beta' },
    { name: 'Gamma', slug: 'gamma' },
  ]);
  // The values bound out of their order in the text, beside a constant of the builder's own (limit).
  const find = (slug: string, after: string) =>
    compiledOnce<{ name: string } | undefined>(db, 'test:find-tag', [after, slug], (afterValue, slugValue) =>
      db('tags').where('slug', slugValue).where('name', '>', afterValue).first('name'),
    );
  expect(await find('beta', 'A')).toEqual({ name: 'Beta' });
  expect(await find('gamma', 'A')).toEqual({ name: 'Gamma' });
  expect(await find('alpha', 'B')).toBeUndefined();
  await db.transaction(async (trx) => {
    const inTransaction = await compiledOnce<{ rows: { n: number }[] }>(
      trx,
      'test:count-tags',
      ['b'],
      (prefix) => trx.raw('SELECT count(*)::int AS n FROM tags WHERE slug >= ?', [prefix]),
    );
    expect(inTransaction.rows).toEqual([{ n: 2 }]);
  });
});

it('refuses a statement that writes a value into its text instead of binding it', async () => {
  const { db } = database;
  expect(() => compiledOnce(db, 'test:identifier', ['slug'], (column) => db('tags').select(column))).toThrow(
    'A value of the statement test:identifier is in its text',
  );
});

it('builds a statement from rows once per shape: their parts, lists and left-out columns shape it, their values do not', async () => {
  const { db } = database;
  await db.raw("CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL DEFAULT 'empty', ref int)");
  const insert = (rows: Record<string, unknown>[]) =>
    compiledOnceFrom<{ id: number }[], Record<string, unknown>[]>(db, 'test:notes', rows, (marked) =>
      db('notes').insert(marked).returning('id'),
    );
  const ref = (id: number) => new SqlPart('(SELECT ? * 10)', [id]);
  expect(await insert([{ id: 1, body: 'one', ref: ref(1) }])).toEqual([{ id: 1 }]);
  expect(await insert([{ id: 2, body: 'two', ref: ref(2) }])).toEqual([{ id: 2 }]);
  expect(
    await insert([
      { id: 3, body: undefined, ref: null },
      { id: 4, body: 'four', ref: ref(4) },
    ]),
  ).toEqual([{ id: 3 }, { id: 4 }]);
  expect(await insert([{ id: 5, body: undefined, ref: null }])).toEqual([{ id: 5 }]);
  expect(await db('notes').orderBy('id').select('id', 'body', 'ref')).toEqual([
    { id: 1, body: 'one', ref: 10 },
    { id: 2, body: 'two', ref: 20 },
    { id: 3, body: 'empty', ref: null },
    { id: 4, body: 'four', ref: 40 },
    { id: 5, body: 'empty', ref: null },
  ]);
});
