import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { createDb } from '../../src/db/knex.ts';
import { type RunningProcess, startProcess } from '../support/process.ts';
import { freePort } from '../support/redis-server.ts';

const adminUrl = inject('pgAdminUrl');
const name = `fresh_${randomBytes(6).toString('hex')}`;
const running: RunningProcess[] = [];
let dataDir: string | undefined;

afterAll(async () => {
  for (const proc of running) {
    if (proc.child.exitCode === null) proc.child.kill('SIGTERM');
    await proc.exited;
  }
  const admin = createDb(adminUrl, 1);
  await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.destroy();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('two web processes starting together on an empty database migrate it and create the admin once, and both serve', async () => {
  const admin = createDb(adminUrl, 1);
  await admin.raw(`CREATE DATABASE ${name}`); // empty: not cloned from the migrated template
  await admin.destroy();
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  await mkdir('.test-data', { recursive: true });
  dataDir = await mkdtemp(path.resolve('.test-data', 'concurrent-'));
  const ports = [await freePort(), await freePort()];
  for (const port of ports) {
    running.push(
      startProcess('src/web/start.ts', [], {
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: url,
        DATA_DIR: dataDir,
      }),
    );
  }
  await Promise.all(running.map((proc) => proc.waitForLog('Penstand is listening')));
  for (const port of ports) expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);

  // One process applied every migration; the other found nothing left to do.
  const applied = running.map((proc) =>
    proc
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"migrations applied"')),
  );
  expect(applied.map((lines) => lines.length).sort()).toEqual([0, 1]);
  const db = createDb(url, 1);
  try {
    const rows = await db('knex_migrations').select('name');
    const names = rows.map((row) => row.name as string);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    expect(JSON.parse(applied.flat()[0]).migrations).toEqual(names);
    // The first-start admin is created by one of them, and its password printed by that one only.
    expect(await db('users').where({ role: 'admin' }).pluck('email')).toEqual(['admin@penstand.local']);
    expect(running.filter((proc) => proc.output().includes('Admin account created'))).toHaveLength(1);
  } finally {
    await db.destroy();
  }
});
