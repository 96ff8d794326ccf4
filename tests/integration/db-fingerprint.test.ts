import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';

// The fuzzers' "changes nothing" rests on this fingerprint: it must see every kind of change.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe('the database fingerprint of the tests', () => {
  it('sees a row added, removed, or changed in place with the count kept, and nothing when nothing changed', async () => {
    const { db } = database;
    await db.raw('CREATE TABLE fp_probe (id int PRIMARY KEY, body text)');
    await db('fp_probe').insert([
      { id: 1, body: 'a' },
      { id: 2, body: 'b' },
    ]);
    const tables = await watchedTables(db);
    expect(tables).toContain('fp_probe');
    const changedBy = async (write: () => Promise<unknown>) => {
      const before = await fingerprint(db, tables);
      await write();
      return changedTables(before, await fingerprint(db, tables));
    };
    expect(await changedBy(async () => {})).toEqual([]);
    expect(await changedBy(() => db('fp_probe').where({ id: 1 }).update({ body: 'a' }))).toEqual([]);
    expect(await changedBy(() => db('fp_probe').where({ id: 1 }).update({ body: 'c' }))).toEqual([
      'fp_probe',
    ]);
    // Two rows swapping their text keep the table's multiset of bodies, but not of rows.
    expect(
      await changedBy(() => db.raw("UPDATE fp_probe SET body = CASE id WHEN 1 THEN 'b' ELSE 'c' END")),
    ).toEqual(['fp_probe']);
    expect(await changedBy(() => db('fp_probe').insert({ id: 3, body: 'd' }))).toEqual(['fp_probe']);
    expect(await changedBy(() => db('fp_probe').where({ id: 3 }).delete())).toEqual(['fp_probe']);
  });

  it('covers only the rows an append-only table had: a new entry passes, a rewritten one shows', async () => {
    const { db } = database;
    const tables = await watchedTables(db, { appendOnly: true });
    expect(tables).toContain('audit_log');
    const [{ id }] = await db('audit_log').insert({ action: 'probe.first', status: 200 }).returning('id');
    const before = await fingerprint(db, tables);
    await db('audit_log').insert({ action: 'probe.second', status: 200 });
    expect(changedTables(before, await fingerprint(db, tables, before))).toEqual([]);
    // Its trigger refuses the rewrite the fingerprint exists to catch; replica mode skips triggers.
    await db.transaction(async (trx) => {
      await trx.raw('SET LOCAL session_replication_role = replica');
      await trx('audit_log').where({ id }).update({ action: 'probe.rewritten' });
    });
    expect(changedTables(before, await fingerprint(db, tables, before))).toEqual(['audit_log']);
  });
});
