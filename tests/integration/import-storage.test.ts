import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJobStatus } from '../../src/import/job-status.ts';
import { sweepUploadedImports } from '../../src/import/uploaded.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { GHOST_FIXTURE } from '../support/import-fixtures.ts';
import { type S3Server, startS3Server } from '../support/s3.ts';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

async function storedNames(app: TestApp): Promise<string[]> {
  const names: string[] = [];
  for await (const name of app.services.privateFiles.list()) if (name.startsWith('import-')) names.push(name);
  return names.sort();
}

describe.each(['local', 's3'] as const)('uploaded imports with %s storage', (storage) => {
  let database: TestDatabase;
  let web: TestApp;
  let worker: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = storage === 's3' ? await s3.createBucket(`penstand-imports-${storage}`) : {};
    web = await startTestApp({ database, env });
    // The worker is another process's, on the same database. Under S3 it has its own disk: only
    // the bucket is shared; a local private directory must be shared.
    const dataDir = web.services.config.dataDir + (storage === 's3' ? '-worker' : '');
    worker = await startTestApp({ database, withWorker: true, env: { ...env, DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await worker?.close();
    await web?.close();
    await database?.drop();
  });

  it('keeps the uploaded file in the private storage and the job imports it from there', async () => {
    const admin = await signedInSession(web, { role: 'admin' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(readFileSync(GHOST_FIXTURE))]), 'ghost.json');
    const res = await fetch(`${web.url}/api/admin/import`, {
      method: 'POST',
      body: form,
      headers: admin.headers,
    });
    expect(res.status).toBe(201);
    const { id, report } = (await res.json()) as {
      id: string;
      report: { total: number; categories: Record<string, { category: string }> };
    };
    expect(await storedNames(web)).toEqual([`import-${id}.json`, `import-${id}.upload`]);

    const started = await fetch(`${web.url}/admin/import`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams([
        ['upload', id],
        ...Object.entries(report.categories).map(([from, { category }]) => [`category:${from}`, category]),
      ]),
      redirect: 'manual',
    });
    expect(started.status).toBe(302);
    let status: ImportJobStatus | undefined;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const polled = await fetch(`${web.url}/api/admin/import/jobs/import-${id}`, { headers: admin.headers });
      status = (await polled.json()) as ImportJobStatus;
      if (status.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status?.state).toBe('done');
    expect(status?.done).toBe(report.total);
    expect(
      await web.services.db('posts').where({ source_system: 'ghost' }).count({ n: '*' }).first(),
    ).toEqual({
      n: report.total,
    });
    // Imported: the file is gone, its preview stays for the screen until the sweep.
    expect(await storedNames(web)).toEqual([`import-${id}.json`]);
  });

  it('sweeps uploaded imports older than a day', async () => {
    const old = `${Math.floor((Date.now() - 25 * 3_600_000) / 1000).toString(16)}0123456789abcdef`;
    const fresh = `${Math.floor(Date.now() / 1000).toString(16)}0123456789abcdef`;
    const before = await storedNames(web);
    for (const id of [old, fresh])
      await web.services.privateFiles.put(
        `import-${id}.upload`,
        Buffer.from('x'),
        'application/octet-stream',
      );
    expect(await sweepUploadedImports(web.services.privateFiles)).toBe(1);
    expect(await storedNames(web)).toEqual([...before, `import-${fresh}.upload`].sort());
  });
});
