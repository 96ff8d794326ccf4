import { afterAll, beforeAll, expect, it } from 'vitest';
import { identityProvider } from '../../src/identity/service.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { refusal } from '../support/refusal.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

it('spends as much work refusing an unknown account as a wrong password', async () => {
  const user = await createUser(app);
  const provider = identityProvider(app.services);
  // The process's CPU time, not the wall clock: argon2's work is the same however busy the machine
  // is, while the wall clock of a refusal also counts waiting for a core.
  const timeRefusal = async (email: string) => {
    const started = process.cpuUsage();
    expect(await refusal(provider.signIn({ email, password: 'Wrong-passw0rd!' }))).toMatchObject({
      status: 401,
    });
    const used = process.cpuUsage(started);
    return used.user + used.system;
  };
  await timeRefusal('warm-up@example.com');
  const known: number[] = [];
  const unknown: number[] = [];
  // Interleaved, so whatever else the process does falls on both sides alike.
  for (let i = 0; i < 9; i++) {
    known.push(await timeRefusal(user.email));
    unknown.push(await timeRefusal(`nobody-${i}@example.com`));
  }
  // Both run argon2 (10-20 ms of CPU here); without the dummy hash the unknown side costs almost none.
  expect(median(unknown)).toBeGreaterThan(median(known) * 0.6);
  expect(median(known)).toBeGreaterThan(median(unknown) * 0.6);
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
    expect((await lookup(String(order.body.id + 1000 + i), `guess-${i}@example.com`)).status).toBe(200);
  const limited = await lookup(String(order.body.id), order.body.customerEmail ?? order.body.email);
  expect(limited.status).toBe(429);
  expect(await limited.text()).toContain('Too many order look-ups from your network');
});

it('limits order look-ups for one email, from however many addresses', async () => {
  // The address limit of the test before is not what this one is about.
  await app.services.db('rate_limits').where('key', 'like', 'order-lookup-%').delete();
  const guest = new GuestClient(app);
  await guest.add((await createProductRow(app.services.db, { stock: 5 })).id);
  const order = await guest.checkout();
  expect(order.status).toBe(201);
  const email: string = order.body.customerEmail ?? order.body.email;
  const lookup = (orderId: number, as: string) =>
    fetch(`${app.url}/orders/lookup`, {
      method: 'POST',
      headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ orderId: String(orderId), email: as }).toString(),
    });
  for (let i = 1; i <= 10; i++) expect((await lookup(order.body.id + 1000 + i, email)).status).toBe(200);
  // The same address typed differently is the same customer.
  const limited = await lookup(order.body.id, email.toUpperCase());
  expect(limited.status).toBe(429);
  expect(await limited.text()).toContain('Too many order look-ups for this email address');
  // Only the address that was guessed at is held: another customer still finds an order.
  const other = new GuestClient(app);
  await other.add((await createProductRow(app.services.db, { stock: 5 })).id);
  const theirs = await other.checkout({ ...validCheckout, customerEmail: 'someone-else@example.com' });
  const found = await lookup(theirs.body.id, 'someone-else@example.com');
  expect(found.status).toBe(200);
  expect(await found.text()).not.toContain('Order not found');
});
