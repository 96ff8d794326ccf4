import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { identityProvider } from '../../src/identity/service.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

it('takes as long to refuse an unknown account as a wrong password', async () => {
  const user = await createUser(app);
  const provider = identityProvider(app.services);
  const timeRefusal = async (email: string) => {
    const started = performance.now();
    await expect(provider.signIn({ email, password: 'Wrong-passw0rd!' })).rejects.toMatchObject({
      status: 401,
    });
    return performance.now() - started;
  };
  await timeRefusal('warm-up@example.com');
  const known: number[] = [];
  const unknown: number[] = [];
  // Interleaved, so a busy moment of the machine falls on both sides alike.
  for (let i = 0; i < 9; i++) {
    known.push(await timeRefusal(user.email));
    unknown.push(await timeRefusal(`nobody-${i}@example.com`));
  }
  // Both run argon2 (about 10-20 ms here); without the dummy hash the unknown side took a third.
  expect(median(unknown)).toBeGreaterThan(median(known) * 0.6);
  expect(median(known)).toBeGreaterThan(median(unknown) * 0.6);
});

async function signInForm(path: '/login' | '/amplify-login', field: 'email' | 'username', value: string) {
  const res = await fetch(`${app.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ [field]: value, password: 'Wrong-passw0rd!' }).toString(),
  });
  return { status: res.status, text: await res.text() };
}

it('counts failed sign-ins per account, whether by username or by email', async () => {
  const user = await createUser(app);
  for (let i = 0; i < 5; i++)
    expect((await signInForm('/amplify-login', 'username', user.username ?? '')).status).toBe(401);
  for (let i = 0; i < 5; i++) expect((await signInForm('/login', 'email', user.email)).status).toBe(401);
  const eleventh = await signInForm('/login', 'email', user.email);
  expect(eleventh.status).toBe(429);
  expect(eleventh.text).toContain('Too many failed sign-in attempts for this account');
  const byUsername = await signInForm('/amplify-login', 'username', user.username ?? '');
  expect(byUsername.status).toBe(429);
});

it('limits order look-ups from one address', async () => {
  await seedDemo(app);
  const product = await createProductRow(app.services.db, { stock: null });
  const guest = new GuestClient(app);
  await guest.add(product.id);
  const order = await guest.checkout();
  expect(order.status).toBe(201);
  const lookup = (orderId: string, email: string) =>
    fetch(`${app.url}/orders/lookup`, {
      method: 'POST',
      headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ orderId, email }).toString(),
    });
  for (let i = 0; i < 20; i++)
    expect((await lookup(String(order.body.id + 1000 + i), 'guess@example.com')).status).toBe(200);
  const limited = await lookup(String(order.body.id), order.body.customerEmail ?? order.body.email);
  expect(limited.status).toBe(429);
  expect(await limited.text()).toContain('Too many order look-ups from your network');
});
