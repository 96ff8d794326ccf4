import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { type S3Server, startS3Server } from '../support/s3.ts';

let database: TestDatabase;
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  database = await createTestDatabase();
  const env = { PAGE_CACHE_TTL_SECONDS: '60' };
  // Two web instances on one database; only the first runs the queue workers.
  a = await startTestApp({ database, withWorker: true, env });
  b = await startTestApp({ database, env });
  await seedDemo(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await database?.drop();
});

const json = { 'content-type': 'application/json' };

it('shares sign-in, session and cart between two web instances', async () => {
  const user = await createUser(a, { username: 'roamer', email: 'roamer@example.com' });
  const login = await fetch(`${a.url}/api/users?action=login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ username: 'roamer', password: user.password }),
  });
  const { token } = await login.json();
  const me = await fetch(`${b.url}/api/users?action=me`, { headers: { authorization: `Bearer ${token}` } });
  expect((await me.json()).user.username).toBe('roamer');

  const product = await a.services
    .db('products')
    .where({ status: 'active' })
    .whereRaw(
      'NOT EXISTS (SELECT 1 FROM stock_levels s WHERE s.product_id = products.id AND s.stock IS NOT NULL)',
    )
    .first('id');
  const added = await fetch(`${a.url}/api/cart?action=add`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({ productId: product.id, quantity: 2 }),
  });
  expect(added.status).toBeLessThan(300);
  const cart = await (
    await fetch(`${b.url}/api/cart`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  expect(cart.summary.totalItems).toBe(2);
});

it('drops the other instance’s stored page within a second when an admin edits through one', async () => {
  const admin = await createUser(a, { role: 'admin', username: 'boss', email: 'boss@example.com' });
  const { token } = await (
    await fetch(`${a.url}/api/users?action=login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ username: 'boss', password: admin.password }),
    })
  ).json();
  const read = async () => {
    const res = await fetch(`${b.url}/about`);
    return { cache: res.headers.get('x-cache'), html: await res.text() };
  };
  await read();
  await new Promise((r) => setTimeout(r, 200));
  expect((await read()).cache).toBe('HIT');

  const saved = await fetch(`${a.url}/api/settings`, {
    method: 'PUT',
    headers: { ...json, authorization: `Bearer ${token}` },
    body: JSON.stringify({
      title: 'Renamed Through Instance A',
      description: 'Stories',
      authorName: 'Alex Morgan',
      authorBio: 'Bio',
    }),
  });
  expect(saved.status).toBe(200);
  const started = Date.now();
  let page = await read();
  while (!page.html.includes('Renamed Through Instance A') && Date.now() - started < 1_000) {
    await new Promise((r) => setTimeout(r, 50));
    page = await read();
  }
  expect(page.html).toContain('Renamed Through Instance A');
});

describe('with S3 upload storage', () => {
  let s3: S3Server;
  let shared: TestDatabase;
  let c: TestApp;
  let d: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    const bucketEnv = await s3.createBucket('penstand-two-instances');
    shared = await createTestDatabase();
    // Separate data directories: only the bucket can carry a file from one to the other.
    const env = (name: string) => ({
      ...bucketEnv,
      DATA_DIR: path.resolve('.test-data', `${shared.name}-${name}`),
    });
    // Uploads go through c; only d runs the queue workers, so d makes the variants.
    c = await startTestApp({ database: shared, env: env('c') });
    d = await startTestApp({ database: shared, withWorker: true, env: env('d') });
  });
  afterAll(async () => {
    await d?.close();
    await c?.close();
    await shared?.drop();
    await s3?.close();
  });

  it('serves an image uploaded through one instance from the other, variants included', async () => {
    expect(c.services.config.uploadsDir).not.toBe(d.services.config.uploadsDir);
    const png = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#16a34a' } })
      .png()
      .toBuffer();
    const admin = await signedInSession(c, { role: 'admin' });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)]), 'shared.png');
    const res = await fetch(`${c.url}/api/uploads`, { method: 'POST', body: form, headers: admin.headers });
    expect(res.status).toBe(201);
    const { url } = (await res.json()) as { url: string };

    const original = await fetch(`${d.url}${url}`);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true);

    const variantUrl = `${c.url}${url.replace(/\.png$/, '-800x400.webp')}`;
    // Until the worker has made it, the variant redirects to the original: wait for the variant itself.
    await expect
      .poll(async () => (await fetch(variantUrl, { redirect: 'manual' })).status, { timeout: 15_000 })
      .toBe(200);
    const meta = await sharp(Buffer.from(await (await fetch(variantUrl)).arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 800, 400]);
  });
});
