import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.ts';
import { asPoolRequest } from '../../src/db/request-first-pool.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, 1);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

/** A promise and the function that settles it. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** The pool's one connection, held by a transaction until `release` opens. */
async function holdTheConnection() {
  const holding = gate();
  const release = gate();
  const holder = db.transaction(async (trx) => {
    await trx.raw('SELECT 1');
    holding.open();
    await release.opened;
  });
  await holding.opened;
  return { release, holder };
}

/**
 * The pool's one connection is held while a new request and then a started one ask for it; the
 * order in which they get it once it is free is returned. `startedAsks` is the started request's
 * second acquisition.
 */
async function servedOrder(startedAsks: (db: Db) => Promise<unknown>): Promise<string[]> {
  const served: string[] = [];
  const secondAsk = gate();
  const firstDone = gate();
  const started = asPoolRequest(async () => {
    await db.raw('SELECT 1');
    firstDone.open();
    await secondAsk.opened;
    await startedAsks(db);
    served.push('started request');
  });
  await firstDone.opened;

  const { release, holder } = await holdTheConnection();
  const fresh = asPoolRequest(async () => {
    await db.raw('SELECT 2');
    served.push('new request');
  });
  // The new request queues first; the started one asks after it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  secondAsk.open();
  await new Promise((resolve) => setTimeout(resolve, 50));
  release.open();
  await Promise.all([holder, started, fresh]);
  return served;
}

it('a request that had a connection gets the next free one before a request that has not started', async () => {
  expect(await servedOrder((pool) => pool.raw('SELECT 3'))).toEqual(['started request', 'new request']);
});

it("a request's transaction queues in arrival order", async () => {
  expect(await servedOrder((pool) => pool.transaction((trx) => trx.raw('SELECT 3')))).toEqual([
    'new request',
    'started request',
  ]);
});

it('outside a request the pool serves in arrival order', async () => {
  const served: string[] = [];
  const { release, holder } = await holdTheConnection();
  const queued = ['first', 'second', 'third'].map((name) => db.raw('SELECT 1').then(() => served.push(name)));
  release.open();
  await Promise.all([holder, ...queued]);
  expect(served).toEqual(['first', 'second', 'third']);
});
