import { afterAll, beforeAll, expect, it } from 'vitest';
import { compiledOnce } from '../../src/db/knex.ts';
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
