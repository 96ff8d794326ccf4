import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder } from '../../src/checkout/place-order.ts';
import { SHOP_MESSAGES } from '../../src/shop/messages.ts';
import { PRODUCT_FILE_MESSAGES } from '../../src/shop/product-file-messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { startWebProcess } from '../support/process.ts';
import { refusal } from '../support/refusal.ts';
import { type S3Server, startS3Server } from '../support/s3.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

type Headers = Record<string, string>;

function postFile(
  app: TestApp,
  productId: number,
  headers: Headers,
  parts: [string, Blob | string, string?][],
) {
  const form = new FormData();
  for (const [field, value, fileName] of parts) {
    if (typeof value === 'string') form.append(field, value);
    else form.append(field, value, fileName);
  }
  return fetch(`${app.url}/api/admin/products/${productId}/files`, { method: 'POST', body: form, headers });
}

/**
 * A multipart POST that declares `declared` bytes and sends only the first `sent`, then waits for
 * the answer: the server must refuse without reading the rest.
 */
function postDeclared(app: TestApp, url: string, headers: Headers, declared: number, sent: number) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const boundary = 'penstand-boundary';
    const req = http.request(`${app.url}${url}`, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(declared),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    // The server closes the connection after its answer; the unsent rest is what it refused.
    req.on('error', () => {});
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    req.write(randomBytes(sent));
  });
}

describe.each(['local', 's3'] as const)('product files with %s storage', (storage) => {
  let app: TestApp;
  let admin: Headers;
  const bucket = 'penstand-files-test';

  beforeAll(async () => {
    const env = storage === 's3' ? await s3.createBucket(bucket) : {};
    app = await startTestApp({ env });
    admin = (await signedInSession(app, { role: 'admin' })).headers;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Every stored key (S3) or file (local, relative to the uploads directory). */
  async function storedKeys(): Promise<string[]> {
    if (storage === 's3') return [...(await s3.list(bucket)).keys()].sort();
    const dir = app.services.config.uploadsDir;
    const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
    return names.filter((name) => name !== 'private').sort();
  }

  async function storedBytes(storageName: string): Promise<Buffer> {
    const object = await app.services.privateFiles.get(storageName);
    if (!object) throw new Error(`${storageName} is not stored`);
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async function storageNameOf(fileId: number): Promise<string> {
    return (await app.services.db('product_files').where({ id: fileId }).first('storage_name')).storage_name;
  }

  it('streams a file into the private area, lists it, never serves it under /uploads, and removes it', async () => {
    const product = await createProductRow(app.services.db, { category: 'Books' });
    const bytes = randomBytes(2 * 1024 * 1024);
    const res = await postFile(app, product.id, admin, [
      ['file', new Blob([bytes]), 'the-book.pdf'],
      // After the file: the answer waits for the whole form.
      ['name', '  The Book (PDF)  '],
    ]);
    expect(res.status).toBe(201);
    const file = (await res.json()) as { id: number; name: string; fileName: string; size: number };
    expect(file).toMatchObject({
      name: 'The Book (PDF)',
      fileName: 'the-book.pdf',
      contentType: 'application/pdf',
      size: bytes.length,
    });

    const storageName = await storageNameOf(file.id);
    expect(storageName).toMatch(/^[a-f0-9]{32}$/);
    expect(await storedKeys()).toEqual([`private/${storageName}`]);
    expect(sha256(await storedBytes(storageName))).toBe(sha256(bytes));
    if (storage === 'local') {
      const onDisk = await readFile(path.join(app.services.config.uploadsDir, 'private', storageName));
      expect(sha256(onDisk)).toBe(sha256(bytes));
    }

    for (const url of [
      `/uploads/${storageName}`,
      `/uploads/private/${storageName}`,
      `/uploads/private%2F${storageName}`,
      `/uploads/..%2Fprivate%2F${storageName}`,
      `/private/${storageName}`,
    ]) {
      const served = await fetch(`${app.url}${url}`, { headers: admin });
      expect(served.status, url).toBe(404);
      expect(Buffer.from(await served.arrayBuffer()).includes(bytes.subarray(0, 64)), url).toBe(false);
    }

    const list = await fetch(`${app.url}/api/admin/products/${product.id}/files`, { headers: admin });
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { files: { id: number; name: string }[] };
    expect(listed.files.map((f) => [f.id, f.name])).toEqual([[file.id, 'The Book (PDF)']]);
    expect(JSON.stringify(listed)).not.toContain(storageName);

    // Without a name the file's own name is shown.
    const second = await postFile(app, product.id, admin, [
      ['file', new Blob(['hello']), 'C:\\tmp\\notes.txt'],
    ]);
    expect(second.status).toBe(201);
    const secondFile = (await second.json()) as { id: number; name: string; fileName: string };
    expect([secondFile.name, secondFile.fileName]).toEqual(['notes.txt', 'notes.txt']);

    const removed = await fetch(`${app.url}/api/admin/products/${product.id}/files/${file.id}`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(removed.status).toBe(200);
    const again = await fetch(`${app.url}/api/admin/products/${product.id}/files/${file.id}`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { message: string }).message).toBe(PRODUCT_FILE_MESSAGES.notFound);
    expect(await storedKeys()).toEqual([`private/${await storageNameOf(secondFile.id)}`]);

    // Deleting the product removes its files from storage too.
    const deleted = await fetch(`${app.url}/api/products/${product.id}`, {
      method: 'DELETE',
      headers: admin,
    });
    expect(deleted.status).toBe(200);
    expect(await storedKeys()).toEqual([]);
  });

  it('refuses a declared 600 MB upload with 413 naming the limit, before reading it, storing nothing', async () => {
    const product = await createProductRow(app.services.db);
    const res = await postDeclared(
      app,
      `/api/admin/products/${product.id}/files`,
      admin,
      600 * 1024 * 1024,
      256 * 1024,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toBe('File size must be less than 500MB');
    expect(await storedKeys()).toEqual([]);
    expect(await app.services.db('product_files').where({ product_id: product.id })).toEqual([]);
  });

  it('answers 400 and 404 with clear messages', async () => {
    const product = await createProductRow(app.services.db);
    const noFile = await fetch(`${app.url}/api/admin/products/${product.id}/files`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noFile.status).toBe(400);
    expect(((await noFile.json()) as { message: string }).message).toBe(PRODUCT_FILE_MESSAGES.noFile);

    const onlyName = await postFile(app, product.id, admin, [['name', 'Nothing attached']]);
    expect(onlyName.status).toBe(400);

    const longName = await postFile(app, product.id, admin, [
      ['name', 'x'.repeat(201)],
      ['file', new Blob(['content']), 'a.txt'],
    ]);
    expect(longName.status).toBe(400);
    expect(((await longName.json()) as { message: string }).message).toBe(PRODUCT_FILE_MESSAGES.nameTooLong);

    const control = await postFile(app, product.id, admin, [
      ['name', 'bad\u0000name'],
      ['file', new Blob(['content']), 'a.txt'],
    ]);
    expect(control.status).toBe(400);

    for (const [method, url] of [
      ['GET', '/api/admin/products/999999/files'],
      ['POST', '/api/admin/products/999999/files'],
      ['GET', '/api/admin/products/abc/files'],
      ['DELETE', `/api/admin/products/${product.id}/files/999999`],
      ['DELETE', `/api/admin/products/${product.id}/files/abc`],
    ] as const) {
      const form = new FormData();
      form.append('file', new Blob(['x']), 'x.txt');
      const res = await fetch(`${app.url}${url}`, {
        method,
        headers: admin,
        body: method === 'POST' ? form : undefined,
      });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect(await storedKeys()).toEqual([]);
  });
});

describe('a 400 MB upload to the web process', () => {
  let app: TestApp;
  let web: Awaited<ReturnType<typeof startWebProcess>> | undefined;
  beforeAll(async () => {
    // The app in this process migrates the database and makes the admin; a web process of its
    // own, started as `npm run start:web` (its V8 flags included), takes the upload.
    app = await startTestApp();
    web = await startWebProcess({
      DATABASE_URL: app.database.url,
      DATA_DIR: path.join(app.services.config.dataDir, 'web-process'),
      LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    web?.child.kill('SIGTERM');
    await web?.exited;
    await app?.close();
  });

  /** The web process's resident memory, from /proc. */
  async function rssOf(pid: number): Promise<number> {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  }

  it('is streamed to storage: the web process stays under 300 MB of RSS throughout', {
    timeout: 120_000,
  }, async () => {
    if (!web?.child.pid) throw new Error('no web process');
    const pid = web.child.pid;
    const { sid } = await signedInSession(app, { role: 'admin' });
    const headers = { cookie: `sid=${sid}`, origin: web.url };
    const product = await createProductRow(app.services.db);
    const boundary = 'penstand-rss';
    const chunk = randomBytes(1024 * 1024);
    const chunks = 400;
    const encoder = new TextEncoder();
    let sent = 0;
    // One 1 MiB buffer sent 400 times, as the server reads it.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          encoder.encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`,
          ),
        );
      },
      pull(controller) {
        if (sent === chunks) {
          controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        sent++;
        controller.enqueue(chunk);
      },
    });
    const samples: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push(await rssOf(pid).catch(() => 0));
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    try {
      const res = await fetch(`${web.url}/api/admin/products/${product.id}/files`, {
        method: 'POST',
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(201);
      const file = (await res.json()) as { id: number; size: number };
      expect(file.size).toBe(chunks * chunk.length);
      const removed = await fetch(`${web.url}/api/admin/products/${product.id}/files/${file.id}`, {
        method: 'DELETE',
        headers,
      });
      expect(removed.status).toBe(200);
    } finally {
      sampling = false;
      await sampler;
    }
    expect(samples.length).toBeGreaterThan(10);
    expect(Math.max(...samples)).toBeLessThan(300 * 1024 * 1024);
  });
});

describe('a streamed body over DOWNLOAD_MAX_MB', () => {
  let app: TestApp;
  let admin: Headers;
  beforeAll(async () => {
    app = await startTestApp({ env: { DOWNLOAD_MAX_MB: '1' } });
    admin = (await signedInSession(app, { role: 'admin' })).headers;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is refused with 413 once it passes the limit, leaving no partial file', async () => {
    const product = await createProductRow(app.services.db);
    const boundary = 'penstand-stream';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`;
    // No Content-Length (chunked): only the streaming check can stop it.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head));
        for (let i = 0; i < 12; i++) controller.enqueue(randomBytes(256 * 1024));
        controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const res = await fetch(`${app.url}/api/admin/products/${product.id}/files`, {
      method: 'POST',
      headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toBe('File size must be less than 1MB');
    const dir = path.join(app.services.config.uploadsDir, 'private');
    expect(await readdir(dir).catch(() => [])).toEqual([]);
    expect(await app.services.db('product_files')).toEqual([]);

    // Within the limit the same route takes it.
    const form = new FormData();
    form.append('file', new Blob([randomBytes(512 * 1024)]), 'small.bin');
    const ok = await fetch(`${app.url}/api/admin/products/${product.id}/files`, {
      method: 'POST',
      body: form,
      headers: admin,
    });
    expect(ok.status).toBe(201);
  });
});

describe('checkout of digital products', () => {
  let app: TestApp;
  let admin: Headers;
  beforeAll(async () => {
    app = await startTestApp();
    admin = (await signedInSession(app, { role: 'admin' })).headers;
  });
  afterAll(async () => {
    await app?.close();
  });

  async function digitalProduct(): Promise<number> {
    const product = await createProductRow(app.services.db, { category: 'Books', stock: null });
    const res = await postFile(app, product.id, admin, [['file', new Blob(['%PDF-1.7']), 'book.pdf']]);
    expect(res.status).toBe(201);
    return product.id;
  }

  /** The checkout page as the guest sees it (its session by header, as the API's). */
  async function checkoutPage(guest: GuestClient): Promise<string> {
    return (await fetch(`${app.url}/checkout`, { headers: { 'x-session-id': guest.sid ?? '' } })).text();
  }

  it('asks only for name and email when every line is digital, and for the address once one ships', async () => {
    const ebook = await digitalProduct();
    const guest = new GuestClient(app);
    expect((await guest.add(ebook)).status).toBe(201);
    const cart = await guest.request('GET', '/api/cart');
    expect(cart.body.summary.digitalOnly).toBe(true);
    expect(cart.body.cart.items[0].product.digital).toBe(true);

    const page = await checkoutPage(guest);
    expect(page).toContain(SHOP_MESSAGES.noShippingNeeded);
    expect(page).toContain('name="customerEmail"');
    for (const field of ['address', 'city', 'zipCode', 'country'])
      expect(page).not.toContain(`name="${field}"`);

    // Without JavaScript: the form's post carries name and email only.
    const placed = await fetch(`${app.url}/checkout`, {
      method: 'POST',
      headers: {
        'x-session-id': guest.sid ?? '',
        origin: app.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' }),
    });
    expect(await placed.text()).toContain(SHOP_MESSAGES.orderConfirmed);
    const order = await app.services.db('orders').orderBy('id', 'desc').first();
    expect(order).toMatchObject({ email: 'ada@example.com', address: '', shipping_method: 'none' });

    // A mug joins the e-book: now the address is needed again, by the page and the API.
    const mug = await createProductRow(app.services.db, { category: 'Merchandise', stock: null });
    expect((await guest.add(ebook)).status).toBe(201);
    expect((await guest.add(mug.id)).status).toBe(201);
    expect((await guest.request('GET', '/api/cart')).body.summary.digitalOnly).toBe(false);
    expect(await checkoutPage(guest)).toContain('name="address"');
    const refused = await guest.checkout({ customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.address).toBe('Address must be at least 5 characters');
    expect((await guest.checkout()).status).toBe(201);
  });

  it('asks for the address when a product lost its files after the check (the order is judged under lock)', async () => {
    const ebook = await digitalProduct();
    const guest = new GuestClient(app);
    expect((await guest.add(ebook)).status).toBe(201);
    // The API answers for its own check; the order itself checks again under its lock.
    await app.services.db('product_files').where({ product_id: ebook }).delete();
    expect(
      await refusal(
        placeOrder(app.services.db, {
          owner: { userId: null, sessionId: guest.sid },
          checkout: {
            customerName: 'Ada Lovelace',
            customerEmail: 'ada@example.com',
            address: '',
            city: '',
            zipCode: '',
            country: '',
          },
          idempotencyKey: null,
          cardPayments: false,
          currency: 'usd',
        }),
      ),
    ).toMatchObject({ status: 409, message: SHOP_MESSAGES.addressNeeded });
    const refused = await guest.checkout({ customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' });
    expect(refused.status).toBe(400);
  });
});
