import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouter } from '../../src/api/index.ts';
import routes from '../../src/app/routes.ts';
import { type Access, type AccessRow, API_ACCESS, PAGE_ACCESS } from '../support/access-table.ts';
import { routerEndpoints } from '../support/api-endpoints.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';
import { createProductRow, validCheckout } from '../support/shop.ts';

const WHO = ['anonymous', 'other', 'admin', 'user'] as const;
type Who = (typeof WHO)[number];

let app: TestApp;
let tables: string[];
let productId: number;
const as: Record<Who, Record<string, string>> = { anonymous: {}, user: {}, other: {}, admin: {} };
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
  as.user = (await signedInSession(app, { role: 'user' })).headers;
  as.other = (await signedInSession(app, { role: 'user' })).headers;
  as.admin = (await signedInSession(app, { role: 'admin' })).headers;
  productId = (await createProductRow(app.services.db, { stock: null })).id;
  tables = await watchedTables(app.services.db);
  // The others have carts of their own: a line id must be checked against the right one.
  for (const who of ['other', 'admin'] as const)
    expect((await call(who, 'POST', '/api/cart?action=add', { productId })).status).toBe(201);
});
afterAll(() => app?.close());

async function call(who: Who, method: string, url: string, body?: unknown) {
  const res = await fetch(`${app.url}${url}`, {
    method,
    redirect: 'manual',
    headers: { ...as[who], ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
  });
  return {
    status: res.status,
    location: res.headers.get('location'),
    cacheControl: res.headers.get('cache-control'),
    text: await res.text(),
  };
}

/** Every answer made for a signed-in session is private to it. */
function expectPrivate(who: Who, cacheControl: string | null, line: string) {
  if (who !== 'anonymous') expect(cacheControl, `${line}: Cache-Control`).toBe('private, no-store');
}

/** A fresh order and, after it, a fresh cart line of the `user` account, made through the API. */
async function userResources(): Promise<{ line: number; order: number }> {
  const added = await call('user', 'POST', '/api/cart?action=add', { productId, quantity: 1 });
  expect(added.status).toBe(201);
  const order = await call('user', 'POST', '/api/orders', validCheckout);
  expect(order.status).toBe(201);
  const again = await call('user', 'POST', '/api/cart?action=add', { productId, quantity: 2 });
  expect(again.status).toBe(201);
  return { line: JSON.parse(again.text).item.id, order: JSON.parse(order.text).id };
}

function fill(url: string, ids: { line: number; order: number }): string {
  return url.replace('{line}', String(ids.line)).replace('{order}', String(ids.order));
}

describe('every route is in the access table', () => {
  it('lists every API endpoint of the router', () => {
    const listed = new Set(API_ACCESS.map((r) => `${r.method} ${r.path}`));
    const missing = routerEndpoints(apiRouter(app.services))
      .map((e) => `${e.method} ${e.path}`)
      .filter((e) => !listed.has(e));
    expect(missing).toEqual([]);
  });

  it('lists every page route', () => {
    const listed = new Set(PAGE_ACCESS.map((r) => r.path));
    const paths = routes.map((r: { path?: string; index?: boolean }) => (r.index ? '/' : `/${r.path}`));
    expect(paths.filter((p) => !listed.has(p))).toEqual([]);
  });
});

/** Whether a response let the visitor in: 401/403 and the sign-in redirect mean refused. */
function refused(status: number, location: string | null): boolean {
  return (
    status === 401 ||
    status === 403 ||
    ((status === 302 || status === 303) && (location ?? '').startsWith('/login'))
  );
}

function expected(access: Access, who: Who): boolean {
  if (access === 'public') return true;
  if (access === 'user') return who !== 'anonymous';
  if (access === 'owner') return who === 'user';
  return who === 'admin';
}

/** Whether a JSON answer carries the resource: an object with its id. */
function reveals(text: string, id: number): boolean {
  return new RegExp(`"id":${id}[,}]`).test(text);
}

async function checkOwnerRow(row: AccessRow) {
  const ids = await userResources();
  const id = row.owns === 'order' ? ids.order : ids.line;
  const url = fill(row.sample ?? row.path, ids);
  for (const who of WHO) {
    const before = await fingerprint(app.services.db, tables);
    const res = await call(who, row.method, url, row.body);
    const line = `${who}: ${row.method} ${url} → ${res.status} ${res.text.slice(0, 120)}`;
    expect(res.status, line).toBeLessThan(500);
    if (who === 'user') {
      expect(res.status, line).toBe(200);
      if (row.method === 'GET') expect(reveals(res.text, id), line).toBe(true);
      continue;
    }
    if (row.method === 'GET') {
      expect(res.status, line).toBe(200);
      expect(reveals(res.text, id), line).toBe(false);
    } else {
      expect(res.status, line).toBe(404);
      expect(JSON.parse(res.text).message, line).toBeTruthy();
      expect(changedTables(before, await fingerprint(app.services.db, tables)), line).toEqual([]);
    }
  }
}

describe('answers as anonymous, user, another user and admin', () => {
  it.each(API_ACCESS.map((row) => [`${row.method} ${row.sample ?? row.path} (${row.access})`, row] as const))(
    '%s',
    async (_, row) => {
      if (row.access === 'owner') return checkOwnerRow(row);
      for (const who of WHO) {
        const url = row.sample ?? row.path;
        const res = await call(who, row.method, url, row.body);
        expect(res.status, `${who}: ${row.method} ${url}`).toBeLessThan(500);
        expectPrivate(who, res.cacheControl, `${who}: ${row.method} ${url}`);
        expect(refused(res.status, res.location), `${who}: ${row.method} ${url} → ${res.status}`).toBe(
          !expected(row.access, who),
        );
        if (!expected(row.access, who)) expect(res.status).toBe(who === 'anonymous' ? 401 : 403);
      }
    },
  );

  it.each(PAGE_ACCESS.map((row) => [row.sample ?? row.path, row] as const))(
    'page %s',
    async (sample, row) => {
      const url = sample.includes('{') ? fill(sample, await userResources()) : sample;
      for (const who of WHO) {
        const res = await fetch(`${app.url}${url}`, { redirect: 'manual', headers: as[who] });
        await res.arrayBuffer();
        expect(res.status, `${who}: ${url}`).toBeLessThan(500);
        expectPrivate(who, res.headers.get('cache-control'), `${who}: ${url}`);
        expect(refused(res.status, res.headers.get('location')), `${who}: ${url} → ${res.status}`).toBe(
          !expected(row.access, who),
        );
        if (row.access === 'admin' && who === 'anonymous') {
          expect(res.headers.get('location')).toBe(`/login?redirectTo=${encodeURIComponent(url)}`);
        }
      }
    },
  );
});

describe('private answers', () => {
  it('keeps a guest’s cart and checkout pages out of shared caches, and leaves other readers’ pages public', async () => {
    const added = await fetch(`${app.url}/api/cart?action=add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId }),
    });
    expect(added.status).toBe(201);
    const cookie = (added.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toMatch(/^sid=/);
    for (const url of ['/cart', '/checkout', '/', '/shop']) {
      const res = await fetch(`${app.url}${url}`, { headers: { cookie } });
      await res.arrayBuffer();
      expect(res.headers.get('cache-control'), url).toBe('private, no-store');
    }
    const anonymous = await fetch(`${app.url}/about`);
    await anonymous.arrayBuffer();
    expect(anonymous.headers.get('cache-control') ?? '').not.toContain('private');
  });
});

describe('one visitor cannot reach another visitor’s cart or orders', () => {
  it('keeps guest carts apart: a line id from another session is not found, and stays as it was', async () => {
    const guest = (sid: string): Record<string, string> => ({ 'x-session-id': sid });
    const a = await fetch(`${app.url}/api/cart?action=add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId, quantity: 2 }),
    });
    expect(a.status).toBe(201);
    const sidA = a.headers.get('x-session-id') ?? '';
    const line = (await a.json()).item.id as number;
    const b = await fetch(`${app.url}/api/cart?action=add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId, quantity: 1 }),
    });
    const sidB = b.headers.get('x-session-id') ?? '';
    expect(sidB).not.toBe(sidA);
    const before = await fingerprint(app.services.db, tables);
    for (const [method, url, body] of [
      ['PUT', `/api/cart?id=${line}`, '{"quantity":7}'],
      ['DELETE', `/api/cart?id=${line}`, undefined],
    ] as const) {
      const res = await fetch(`${app.url}${url}`, {
        method,
        headers: { ...guest(sidB), 'content-type': 'application/json' },
        body,
      });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    const bCart = await (await fetch(`${app.url}/api/cart`, { headers: guest(sidB) })).text();
    expect(reveals(bCart, line)).toBe(false);
    expect(changedTables(before, await fingerprint(app.services.db, tables))).toEqual([]);
    const aCart = await (await fetch(`${app.url}/api/cart`, { headers: guest(sidA) })).json();
    expect(aCart.cart.items.map((i: { id: number; quantity: number }) => [i.id, i.quantity])).toEqual([
      [line, 2],
    ]);
  });

  it('shows an order to the order lookup only with its own email, and never in another user’s orders', async () => {
    const { order } = await userResources();
    const lookup = async (email: string) => {
      const res = await fetch(`${app.url}/orders/lookup`, {
        method: 'POST',
        headers: { ...as.other, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ orderId: String(order), email }),
      });
      return res.text();
    };
    expect(await lookup(validCheckout.customerEmail)).toContain('id="lookup-result"');
    const guessed = await lookup('someone-else@example.com');
    expect(guessed).not.toContain('id="lookup-result"');
    expect(guessed).toContain('Order not found');
    const theirs = await call('other', 'GET', '/api/orders?action=my-orders');
    expect(reveals(theirs.text, order)).toBe(false);
  });
});
