import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.ts';

export type TestDatabase = { db: Db; url: string; name: string; drop: () => Promise<void> };

/** A fresh database cloned from the migrated template: each test file gets its own. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = createDb(adminUrl, 1);
  try {
    await admin.raw(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  } finally {
    await admin.destroy();
  }
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  const db = createDb(url, 5);
  return {
    db,
    url,
    name,
    async drop() {
      await db.destroy();
      const cleanup = createDb(adminUrl, 1);
      await cleanup.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.destroy();
    },
  };
}
