import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  BACKUP_SUFFIX,
  type BackupRun,
  backupsDir,
  lastBackupRun,
  UPLOADS_SUFFIX,
  writeBackup,
} from '../../src/backups/scheduled-backups.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/embedded.ts';
import { createDb } from '../../src/db/knex.ts';
import { createUploadStorage } from '../../src/media/storage.ts';
import { fingerprint } from '../support/db-fingerprint.ts';
import { emptyDataDir, type RunningProcess, startProcess, startWebProcess } from '../support/process.ts';
import { freePort } from '../support/redis-server.ts';
import { validCheckout } from '../support/shop.ts';

const dirs: string[] = [];
let site: (RunningProcess & { url: string }) | undefined;
afterAll(async () => {
  if (site && site.child.exitCode === null) {
    site.child.kill('SIGTERM');
    await site.exited;
  }
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function freshDataDir(): Promise<string> {
  const dir = await emptyDataDir('backups');
  dirs.push(dir);
  return dir;
}

const TABLES = ['posts', 'products', 'orders', 'order_items', 'order_events', 'blog_settings', 'users'];
const quiet = () => ({ info: () => {}, error: () => {}, debug: () => {} });

it('the embedded site backs itself up on schedule, keeps the newest N, and a backup restores into an empty DATA_DIR as the same site', async () => {
  const dataDir = await freshDataDir();
  const pgPort = await freePort();
  // Embedded and seeded, as npm start runs it; a backup every 3.6 s, the newest 2 kept.
  site = await startWebProcess(
    {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      BACKUP_INTERVAL_HOURS: '0.001',
      BACKUP_KEEP: '2',
      LOG_LEVEL: 'info',
    },
    { args: ['--with-worker'] },
  );
  await writeFile(path.join(dataDir, 'uploads', 'backed-up.txt'), 'an upload').catch(async () => {
    await mkdir(path.join(dataDir, 'uploads'), { recursive: true });
    await writeFile(path.join(dataDir, 'uploads', 'backed-up.txt'), 'an upload');
  });
  await mkdir(path.join(dataDir, 'uploads', 'private'), { recursive: true });
  await writeFile(path.join(dataDir, 'uploads', 'private', 'book.pdf'), 'a private file');

  const live = createDb(`postgres://postgres:postgres@127.0.0.1:${pgPort}/penstand`, 1);
  try {
    const product = await live('products')
      .where('status', 'active')
      .whereRaw(
        'NOT EXISTS (SELECT 1 FROM stock_levels s WHERE s.product_id = products.id AND s.stock IS NOT NULL)',
      )
      .first('id');
    const add = await fetch(`${site.url}/api/cart?action=add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId: product.id, quantity: 1 }),
    });
    const order = await fetch(`${site.url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': add.headers.get('x-session-id') ?? '' },
      body: JSON.stringify(validCheckout),
    });
    expect(order.status).toBe(201);
    // The confirmation mail's event lands, then the content stands still.
    await expect
      .poll(
        async () =>
          (await live('order_events').where('type', 'ConfirmationEmailSent').count({ n: '*' }))[0].n,
      )
      .toBe(1);
    const before = await fingerprint(live, TABLES);
    const takenAt = Date.now();

    const dir = backupsDir(dataDir);
    const lastRun = async () =>
      JSON.parse(await readFile(path.join(dir, 'last-run.json'), 'utf8')) as BackupRun;
    await expect
      .poll(async () => Date.parse((await lastRun().catch(() => null))?.at ?? '0') > takenAt + 2_000)
      .toBe(true);
    expect(await lastRun()).toMatchObject({ ok: true });

    site.child.kill('SIGTERM');
    expect(await site.exited, site.output()).toBe(0);
    // Several ran; two pairs are left, and the stop waited for the one in progress: nothing half-written.
    const files = (await readdir(dir)).sort();
    expect(files.filter((f) => f.endsWith(BACKUP_SUFFIX))).toHaveLength(2);
    expect(files.filter((f) => f.endsWith(UPLOADS_SUFFIX))).toHaveLength(2);
    expect(files.filter((f) => f.startsWith('.'))).toEqual([]);
    const newest = path.join(dir, files.filter((f) => f.endsWith(BACKUP_SUFFIX)).at(-1) ?? '');

    // `npm run db:restore -- FILE` into an empty DATA_DIR: the same posts, products, orders,
    // settings and accounts, and the uploads back in place.
    const restoredDir = await freshDataDir();
    const restoredPort = await freePort();
    const env = { NODE_ENV: 'test', DATA_DIR: restoredDir, EMBEDDED_PG_PORT: String(restoredPort) };
    const restore = startProcess('src/cli/backup.ts', ['restore', newest], env);
    expect(await restore.exited, restore.output()).toBe(0);
    expect(await readFile(path.join(restoredDir, 'uploads', 'backed-up.txt'), 'utf8')).toBe('an upload');
    expect(await readFile(path.join(restoredDir, 'uploads', 'private', 'book.pdf'), 'utf8')).toBe(
      'a private file',
    );
    const opened = await openDatabase({
      databaseUrl: undefined,
      dataDir: restoredDir,
      port: restoredPort,
      role: 'command',
      log: quiet(),
    });
    const restored = createDb(opened.url, 1);
    try {
      expect(await fingerprint(restored, TABLES)).toEqual(before);
    } finally {
      await restored.destroy();
      await opened.close();
    }
    expect(existsSync(path.join(restoredDir, 'pg', 'postmaster.pid'))).toBe(false);
  } catch (error) {
    // What the site said, for a failure seen only on a busy machine.
    if (site) process.stderr.write(`site output:\n${site.output().slice(-4000)}\n`);
    throw error;
  } finally {
    await live.destroy();
  }
}, 240_000); // two embedded clusters started from nothing, on a busy machine

it('a backup that fails leaves no file behind and records why, for the dashboard', async () => {
  const dataDir = await freshDataDir();
  const dir = backupsDir(dataDir);
  const storage = createUploadStorage(loadConfig({ DATA_DIR: dataDir }));
  const run = await writeBackup(dir, 7, {
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${await freePort()}/none`,
    uploads: storage,
    privateFiles: storage,
  });
  expect(run).toMatchObject({ ok: false, error: expect.stringMatching(/ECONNREFUSED/) });
  expect(await lastBackupRun(dir)).toEqual(run);
  expect(await readdir(dir)).toEqual(['last-run.json']);
});
