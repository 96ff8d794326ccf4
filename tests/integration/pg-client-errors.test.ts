import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from '../../src/db/pg.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

it("keeps the process when PostgreSQL ends an idle client's connection: the client's next query fails instead", {
  timeout: 15_000,
}, async () => {
  // Ours, idle between two statements (the scheduled backup's), and one made through require('pg'),
  // as knex and BullMQ load the driver (BullMQ's LISTEN client had no listener for an instant).
  const RequiredClient = createRequire(import.meta.url)('pg').Client as typeof pg.Client;
  const clients = [
    new pg.Client({ connectionString: database.url, application_name: 'pg-errors-ours' }),
    new RequiredClient({ connectionString: database.url, application_name: 'pg-errors-required' }),
  ];
  for (const client of clients) await client.connect();
  const ended = Promise.all(clients.map((client) => new Promise((resolve) => client.once('end', resolve))));
  // What every backend sends when PostgreSQL dies or is told to end it: a FATAL error, then the close.
  const { rows } = await database.db.raw(
    `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
     WHERE application_name IN ('pg-errors-ours', 'pg-errors-required')`,
  );
  expect(rows).toEqual([{ ended: true }, { ended: true }]);
  await ended;
  for (const client of clients) await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable/);
});
