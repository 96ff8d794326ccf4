import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { backupDatabase, restoreDatabase } from '../../src/db/backup.ts';
import { seedDemoContent } from '../../src/demo/seed.ts';
import { ensureAdmin } from '../../src/identity/admin.ts';
import { STOCK_COLUMN_SQL } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase } from '../support/db.ts';

let app: TestApp;
const dir = path.resolve('.test-data', `backup-${process.pid}`);
beforeAll(async () => {
  app = await startTestApp();
  await mkdir(dir, { recursive: true });
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

type Snapshot = Record<string, unknown[]>;

async function snapshot(db: TestApp['services']['db']): Promise<Snapshot> {
  return {
    posts: await db('posts')
      .orderBy('id')
      .select('id', 'title', 'slug', 'content_html', 'tags', 'published_at'),
    comments: await db('comments')
      .orderBy('id')
      .select('id', 'post_id', 'author', 'email', 'content', 'approved'),
    products: await db('products as p')
      .orderBy('id')
      .select('id', 'name', 'price', db.raw(`${STOCK_COLUMN_SQL} AS stock`)),
    users: await db('users').orderBy('id').select('id', 'email', 'password_hash', 'role'),
    order_events: await db('order_events').orderBy('id').select('id', 'order_id', 'version', 'type', 'data'),
    settings: await db('blog_settings').select('*'),
    // Derived by triggers, recounted by the restore: the pages' totals must survive it.
    postCounts: await db('post_counts').orderBy(['status', 'category']).select('*'),
    productCounts: await db('product_counts').orderBy(['status', 'category']).select('*'),
    commentCounts: await db('comment_counts').orderBy('post_id').select('*'),
  };
}

it('backs up, wipes, restores and finds every post, comment, user and order event again', async () => {
  const { db } = app.services;
  await ensureAdmin(db, undefined);
  await seedDemoContent(db);
  await db('comments').insert({
    post_id: 1,
    author: 'Tab\there',
    email: 'x@example.com',
    content: 'Line one\nline two \\ backslash ✓',
  });
  await db('order_events').insert([
    { order_id: 1, version: 1, type: 'OrderPlaced', data: { total: 2999, lines: [{ name: 'Mug', qty: 1 }] } },
    { order_id: 1, version: 2, type: 'PaymentRecorded', data: {} },
  ]);
  const before = await snapshot(db);
  expect(before.posts.length).toBeGreaterThan(15);

  const file = path.join(dir, 'one.backup.gz');
  const header = await backupDatabase(app.database.url, file);
  expect(header.tables.map((t) => t.name)).toEqual(
    expect.arrayContaining(['posts', 'comments', 'order_events', 'users']),
  );
  // Parents come before children.
  const names = header.tables.map((t) => t.name);
  expect(names.indexOf('posts')).toBeLessThan(names.indexOf('comments'));

  await db.raw(
    'TRUNCATE posts, comments, products, users, order_events, blog_settings RESTART IDENTITY CASCADE',
  );
  expect(await db('posts').count({ n: '*' }).first()).toEqual({ n: 0 });

  await restoreDatabase(app.database.url, file);
  expect(await snapshot(db)).toEqual(before);
  // Sequences continue after the restored ids.
  const [next] = await db('posts')
    .insert({ title: 'After', slug: 'after', content: 'x', excerpt: 'x', category: 'Life' })
    .returning('id');
  expect(next.id).toBe(Math.max(...before.posts.map((p) => (p as { id: number }).id)) + 1);

  // The same file restores into a brand-new database too.
  const fresh = await createTestDatabase();
  try {
    await restoreDatabase(fresh.url, file);
    expect(await snapshot(fresh.db)).toEqual(before);
  } finally {
    await fresh.drop();
  }
});

it('refuses a file that is not a backup and leaves the data alone', async () => {
  const { writeFile } = await import('node:fs/promises');
  const { gzipSync } = await import('node:zlib');
  const bogus = path.join(dir, 'bogus.gz');
  await writeFile(bogus, gzipSync('{"format":"other"}\n'));
  const count = await app.services.db('posts').count({ n: '*' }).first();
  await expect(restoreDatabase(app.database.url, bogus)).rejects.toThrow('is not a Penstand backup');
  expect(await app.services.db('posts').count({ n: '*' }).first()).toEqual(count);
});
