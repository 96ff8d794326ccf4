import { afterAll, expect, it } from 'vitest';
import { DatabaseAvailability, isConnectionError, isPoolTimeout } from '../../src/db/availability.ts';
import { createDb, type Db } from '../../src/db/knex.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase | undefined;
let onePool: Db | undefined;
afterAll(async () => {
  await onePool?.destroy();
  await database?.drop();
});

it('a busy pool refuses the waiting query as a pool timeout, without marking the database down', async () => {
  database = await createTestDatabase();
  const pool = createDb(database.url, 1);
  onePool = pool;
  const availability = new DatabaseAvailability(pool);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The only connection stays in a transaction until the waiting query has given up.
  let holdingConnection: () => void = () => {};
  const connectionHeld = new Promise<void>((resolve) => {
    holdingConnection = resolve;
  });
  const holding = pool.transaction(async (trx) => {
    await trx.raw('SELECT 1');
    holdingConnection();
    await held;
  });
  await connectionHeld;
  const error = await pool.raw('SELECT 1').then(
    () => null,
    (e: unknown) => e,
  );
  expect(isPoolTimeout(error)).toBe(true);
  expect(isConnectionError(error)).toBe(false);
  expect(availability.isDown).toBe(false);
  release();
  await holding;
  expect(await availability.check()).toBe(true);
  availability.stop();
});

it('a refused connection is a connection error and marks the database down', async () => {
  const unreachable = createDb('postgres://postgres:postgres@127.0.0.1:1/none', 1);
  const availability = new DatabaseAvailability(unreachable);
  try {
    const error = await unreachable.raw('SELECT 1').then(
      () => null,
      (e: unknown) => e,
    );
    expect(isConnectionError(error)).toBe(true);
    expect(await availability.check()).toBe(false);
    expect(availability.isDown).toBe(true);
  } finally {
    availability.stop();
    await unreachable.destroy();
  }
});

it('a query on a connection the server ended is a connection error, whatever pg calls it', () => {
  for (const message of [
    'Connection terminated unexpectedly',
    'select 1 - Client has encountered a connection error and is not queryable',
    'select 1 - Client was closed and is not queryable',
  ])
    expect(isConnectionError(new Error(message))).toBe(true);
  expect(isConnectionError(new Error('relation "nope" does not exist'))).toBe(false);
});
