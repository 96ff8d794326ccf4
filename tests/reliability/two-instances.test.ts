import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

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

  const product = await a.services.db('products').where({ status: 'active' }).whereNull('stock').first('id');
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
