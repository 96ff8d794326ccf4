import { readFileSync } from 'node:fs';
import http from 'node:http';
import { Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportJobStatus } from '../../src/import/job-status.ts';
import { IMPORT_MESSAGES, MAX_IMPORT_BYTES } from '../../src/import/messages.ts';
import { EXPORT_VERSION } from '../../src/import/penstand.ts';
import { readUploadState } from '../../src/import/uploaded.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';
import { WXR_FIXTURE } from '../support/import-fixtures.ts';

const WXR = WXR_FIXTURE;

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;
const wxr = readFileSync(WXR);

beforeAll(async () => {
  app = await startTestApp({ withWorker: true });
  admin = await signedInSession(app, { role: 'admin' });
});
afterAll(async () => {
  await app?.close();
});

function upload(body: Buffer, fileName: string, accept = 'application/json') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(body)]), fileName);
  return fetch(`${app.url}/api/admin/import`, {
    method: 'POST',
    body: form,
    headers: { ...admin.headers, accept },
    redirect: 'manual',
  });
}

/** Uploaded files still waiting in the private storage. */
async function leftovers() {
  const names: string[] = [];
  for await (const name of app.services.privateFiles.list()) if (name.endsWith('.upload')) names.push(name);
  return names;
}

describe('admin import screen', () => {
  it.each([
    ['not XML', Buffer.from('Just some text, not an export.'), 'notes.xml', /neither a WordPress export/],
    ['wrong JSON', Buffer.from('{"hello": "world"}'), 'export.json', /Ghost/],
    ['truncated', wxr.subarray(0, Math.floor(wxr.length / 2)), 'export.xml', /Nothing was imported/],
    ['0 bytes', Buffer.alloc(0), 'export.xml', /empty \(0 bytes\)/],
    ['a compressed file posing as XML', gzipSync(wxr), 'export.xml', /neither a WordPress export/],
  ])('refuses %s with a clear message and changes nothing', async (_, body, name, message) => {
    const tables = await watchedTables(app.services.db);
    const before = await fingerprint(app.services.db, tables);
    const res = await upload(body, name);
    const json = (await res.json()) as { id: string; message: string };
    expect(res.status).toBe(422);
    expect(json.message).toMatch(message);
    expect(changedTables(before, await fingerprint(app.services.db, tables, before))).toEqual([]);
    expect(await leftovers()).toEqual([]);
    // Without JavaScript the form lands on the screen, which says the same.
    const page = await fetch(`${app.url}/admin/import?upload=${json.id}`, { headers: admin.headers });
    expect(await page.text()).toContain(json.message.replace(/'/g, '&#x27;').slice(0, 40));
  });

  it('shows a refusal before the dry run (too large, no file) on the screen without JavaScript', async () => {
    const boundary = 'penstand-test-boundary';
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    async function* tooLarge() {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.xml"\r\n\r\n`,
      );
      for (let sent = 0; sent <= MAX_IMPORT_BYTES; sent += chunk.length) yield chunk;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    const cases: [BodyInit, string][] = [
      [Readable.toWeb(Readable.from(tooLarge())) as ReadableStream, IMPORT_MESSAGES.tooLarge],
      [
        `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nx\r\n--${boundary}--\r\n`,
        IMPORT_MESSAGES.noFile,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await fetch(`${app.url}/api/admin/import`, {
        method: 'POST',
        body,
        duplex: 'half',
        headers: {
          ...admin.headers,
          accept: 'text/html',
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        redirect: 'manual',
      } as RequestInit);
      expect(res.status).toBe(303);
      const page = await fetch(new URL(res.headers.get('location') ?? '', app.url), {
        headers: admin.headers,
      });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(message.replace(/'/g, '&#x27;').slice(0, 40));
    }
    expect(await leftovers()).toEqual([]);
  });

  it('answers 413 at once to a declared Content-Length over the limit, without waiting for the body', async () => {
    const started = Date.now();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${app.url}/api/admin/import`, {
        method: 'POST',
        headers: {
          ...admin.headers,
          'content-type': 'multipart/form-data; boundary=zz',
          'content-length': String(1024 ** 3),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      // The head and the first bytes only: the 1 GB never comes.
      req.write('--zz\r\nContent-Disposition: form-data; name="file"; filename="huge.xml"\r\n\r\n');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).message).toBe(IMPORT_MESSAGES.tooLarge);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('uploads a WordPress export, previews it, imports it as a job and reports', async () => {
    const { db } = app.services;
    const tables = await watchedTables(db);
    const before = await fingerprint(db, tables);
    const res = await upload(wxr, 'wordpress-theme-unit-test.xml', 'text/html');
    expect(res.status).toBe(303);
    const id = new URL(res.headers.get('location') ?? '', app.url).searchParams.get('upload') ?? '';
    // The preview is a dry run: nothing is written yet.
    expect(changedTables(before, await fingerprint(db, tables, before))).toEqual([]);
    const state = await readUploadState(app.services.privateFiles, id);
    if (state?.status !== 'preview') throw new Error(`no preview: ${JSON.stringify(state)}`);
    const { report: preview } = state;
    expect(preview.contents.posts).toBeGreaterThan(0);
    expect(preview.contents.pages).toBeGreaterThan(0);
    expect(preview.contents.tags).toBeGreaterThan(0);
    const page = await (
      await fetch(`${app.url}/admin/import?upload=${id}`, { headers: admin.headers })
    ).text();
    expect(page).toContain('Preview of wordpress-theme-unit-test.xml');
    expect(page).toContain('Copy images into Penstand');
    expect(page).toContain(`name="category:Uncategorized"`);

    const form = new URLSearchParams({ upload: id });
    for (const [from, { category }] of Object.entries(preview.categories))
      form.set(`category:${from}`, from === 'Uncategorized' ? 'Lifestyle' : category);
    const started = await fetch(`${app.url}/admin/import`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      redirect: 'manual',
    });
    expect(started.status).toBe(302);
    const jobId = new URL(started.headers.get('location') ?? '', app.url).searchParams.get('job');
    expect(jobId).toBe(`import-${id}`);

    let status: ImportJobStatus | undefined;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const polled = await fetch(`${app.url}/api/admin/import/jobs/${jobId}`, { headers: admin.headers });
      status = (await polled.json()) as ImportJobStatus;
      if (status.state !== 'running') break;
      expect(status.done).toBeLessThanOrEqual(status.total);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status?.state).toBe('done');
    expect(status?.done).toBe(preview.total);
    expect(status?.report?.created).toBe(preview.created);
    expect(status?.report?.skipped).toHaveLength(preview.skipped.length);
    expect(await db('posts').where({ source_system: 'wordpress' }).count({ n: '*' }).first()).toEqual({
      n: preview.created,
    });
    const uncategorized = preview.categories.Uncategorized.posts;
    expect(await db('posts').where({ category: 'Lifestyle' }).count({ n: '*' }).first()).toEqual({
      n: uncategorized,
    });
    expect(await leftovers()).toEqual([]);
    const done = await (
      await fetch(`${app.url}/admin/import?job=${jobId}`, { headers: admin.headers })
    ).text();
    expect(done).toContain('Import finished');
    expect(done).toContain('Skipped items');
  });

  it('downloads the export as an attachment', async () => {
    const res = await fetch(`${app.url}/api/admin/export`, { headers: admin.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="penstand-export-.+\.json"$/,
    );
    const document = (await res.json()) as { penstand_export: number; posts: unknown[] };
    expect(document.penstand_export).toBe(EXPORT_VERSION);
    expect(document.posts.length).toBeGreaterThan(0);
  });

  it('streams the uploads as a .tar.gz', async () => {
    await app.services.uploads.put(
      '0123456789abcdef0123456789abcdef.png',
      Buffer.from('not really a png'),
      'image/png',
    );
    const res = await fetch(`${app.url}/api/admin/export/uploads`, { headers: admin.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="penstand-uploads-.+\.tar\.gz"$/,
    );
    const entries = new Map<string, string>();
    const extract = tar.extract();
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        entries.set(header.name, Buffer.concat(chunks).toString());
        next();
      });
    });
    Readable.fromWeb(res.body as never)
      .pipe(createGunzip())
      .pipe(extract);
    await new Promise<void>((resolve, reject) => extract.on('finish', () => resolve()).on('error', reject));
    expect(entries.get('uploads/0123456789abcdef0123456789abcdef.png')).toBe('not really a png');
    // Uploaded imports live in the private storage: never in the public archive.
    expect([...entries.keys()].filter((name) => name.includes('import-'))).toEqual([]);
  });
});
