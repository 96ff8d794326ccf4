import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sweepExpiredSessions } from '../../src/identity/sessions.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import { createProductRow } from '../support/shop.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it('refuses a cookie-authenticated unsafe API request from another origin', async () => {
  const { cookie } = await signedInSession(app);
  const res = await fetch(`${app.url}/api/health`, {
    method: 'POST',
    headers: { cookie, origin: 'https://evil.example' },
  });
  expect(res.status).toBe(403);
  expect(await res.json()).toEqual({ message: 'Cross-site request refused.' });
});

it('lets the same request through from our own origin and with a Bearer token', async () => {
  const { cookie, sid } = await signedInSession(app);
  const same = await fetch(`${app.url}/api/health`, { method: 'POST', headers: { cookie, origin: app.url } });
  // It reached the router, which has no POST there.
  expect(same.status).toBe(405);
  expect(await same.json()).toEqual({ message: 'POST is not allowed at /api/health' });
  const bearer = await fetch(`${app.url}/api/health`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sid}`, origin: 'https://evil.example' },
  });
  expect(bearer.status).toBe(405);
});

it('keeps a guest API client in the session it chose itself, and never lets that header name a signed-in session', async () => {
  const product = await createProductRow(app.services.db, { stock: null });
  const chosen = randomBytes(24).toString('base64url');
  const headers = { 'content-type': 'application/json', 'x-session-id': chosen };
  const added = await fetch(`${app.url}/api/cart?action=add`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ productId: product.id }),
  });
  expect(added.status).toBe(201);
  expect(added.headers.get('x-session-id')).toBe(chosen);
  const cart = await (await fetch(`${app.url}/api/cart`, { headers })).json();
  expect(cart.cart.items.map((i: { productId: number }) => i.productId)).toEqual([product.id]);

  // Too short to be unguessable: not taken.
  const short = await fetch(`${app.url}/api/cart?action=add`, {
    method: 'POST',
    headers: { ...headers, 'x-session-id': 'abc123' },
    body: JSON.stringify({ productId: product.id }),
  });
  expect(short.headers.get('x-session-id')).not.toBe('abc123');

  const { sid } = await signedInSession(app);
  const me = await fetch(`${app.url}/api/users?action=me`, { headers: { 'x-session-id': sid } });
  expect(me.status).toBe(401);
});

it('rotates a client-chosen session id at sign-in, and its cart moves to the new session', async () => {
  const product = await createProductRow(app.services.db, { stock: null });
  const user = await createUser(app);
  const chosen = randomBytes(24).toString('base64url');
  const headers = { 'content-type': 'application/json', 'x-session-id': chosen };
  const added = await fetch(`${app.url}/api/cart?action=add`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ productId: product.id, quantity: 2 }),
  });
  expect(added.status).toBe(201);
  const login = await fetch(`${app.url}/api/users?action=login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  expect(token).toMatch(/^[\w-]{32,}$/);
  expect(token).not.toBe(chosen);
  expect(await app.services.db('sessions').where({ sid: chosen }).first()).toBeUndefined();
  const signedIn = { authorization: `Bearer ${token}` };
  const cart = await (await fetch(`${app.url}/api/cart`, { headers: signedIn })).json();
  expect(
    cart.cart.items.map((i: { productId: number; quantity: number }) => [i.productId, i.quantity]),
  ).toEqual([[product.id, 2]]);
  // The chosen id is nobody's now: it names no signed-in session and holds no cart.
  expect((await fetch(`${app.url}/api/users?action=me`, { headers })).status).toBe(401);
  const stale = await (await fetch(`${app.url}/api/cart`, { headers })).json();
  expect(stale.cart.items).toEqual([]);
});

it('echoes no session id to a like, and counts likes without a session once per address and day', async () => {
  await seedDemo(app);
  const post = await publishedPost(app);
  const [comment] = await app.services
    .db('comments')
    .insert({ post_id: post.id, author: 'A', email: 'a@example.com', content: 'Hi', approved: true })
    .returning('id');
  const like = `${app.url}/api/comments?id=${comment.id}&action=like`;
  const { cookie } = await signedInSession(app);
  const signedIn = await fetch(like, { method: 'PUT', headers: { cookie, origin: app.url } });
  expect(signedIn.status).toBe(200);
  expect(signedIn.headers.get('x-session-id')).toBeNull();
  const sessions = async () => Number((await app.services.db('sessions').count({ n: '*' }).first())?.n);
  const before = await sessions();
  const guests = [];
  for (let i = 0; i < 3; i++) guests.push(await fetch(like, { method: 'PUT' }));
  expect(guests.map((r) => r.status)).toEqual([200, 200, 200]);
  expect(guests.map((r) => r.headers.get('x-session-id'))).toEqual([null, null, null]);
  expect(guests.map((r) => r.headers.get('set-cookie'))).toEqual([null, null, null]);
  // The signed-in like and this address's one.
  expect(await Promise.all(guests.map(async (r) => (await r.json()).likes))).toEqual([2, 2, 2]);
  // The post page's like form (without JavaScript) counts alike, and makes no session either.
  const [other] = await app.services
    .db('comments')
    .insert({ post_id: post.id, author: 'B', email: 'b@example.com', content: 'Hello', approved: true })
    .returning('id');
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${app.url}/post/${post.slug}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'like', commentId: String(other.id) }).toString(),
    });
    expect(res.status).toBeLessThan(400);
    expect(res.headers.getSetCookie().filter((c) => c.startsWith('sid='))).toEqual([]);
  }
  expect((await app.services.db('comments').where({ id: other.id }).first('likes')).likes).toBe(1);
  expect(await sessions()).toBe(before);
});

it('shows the demo page a fingerprint of the session, never its id', async () => {
  const { cookie, sid } = await signedInSession(app);
  const html = await (await fetch(`${app.url}/amplify-demo`, { headers: { cookie } })).text();
  expect(html).toContain('sha256:');
  expect(html).not.toContain(sid);
  expect(html).not.toContain(sid.slice(0, 16));
});

it('ends a signed-in session after 30 idle days, and moves the deadline with each use', async () => {
  const { cookie, sid } = await signedInSession(app);
  const day = 24 * 60 * 60 * 1000;
  const expiry = async () =>
    (await app.services.db('sessions').where({ sid }).first('expire')).expire.getTime();
  const me = () => fetch(`${app.url}/api/users?action=me`, { headers: { cookie } });
  expect((await me()).status).toBe(200);
  expect(Math.abs((await expiry()) - (Date.now() + 30 * day))).toBeLessThan(60_000);
  // Used again 29 days later: 30 more days from then.
  await app.services
    .db('sessions')
    .where({ sid })
    .update({ expire: new Date(Date.now() + day) });
  expect((await me()).status).toBe(200);
  expect(Math.abs((await expiry()) - (Date.now() + 30 * day))).toBeLessThan(60_000);
  // Not used for the whole idle time: gone.
  await app.services
    .db('sessions')
    .where({ sid })
    .update({ expire: new Date(Date.now() - 1_000) });
  expect((await me()).status).toBe(401);
});

it('answers OPTIONS on the API with the methods the path has', async () => {
  const res = await fetch(`${app.url}/api/posts`, { method: 'OPTIONS' });
  expect(res.status).toBeLessThan(300);
  const allowed = (res.headers.get('allow') ?? '').split(', ').sort();
  expect(allowed).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
  const patch = await fetch(`${app.url}/api/posts`, { method: 'PATCH' });
  expect(patch.status).toBe(405);
  expect(patch.headers.get('allow')).toBe(res.headers.get('allow'));
  const none = await fetch(`${app.url}/api/no-such-thing`, { method: 'OPTIONS' });
  expect(none.status).toBe(404);
});

it('sweeps expired sessions with their guest carts, and keeps live ones and signed-in carts', async () => {
  const { db } = app.services;
  const product = await createProductRow(db, { stock: null });
  const user = await createUser(app);
  const past = new Date(Date.now() - 60_000);
  const future = new Date(Date.now() + 60_000);
  const sid = () => randomBytes(24).toString('base64url');
  const [expiredGuest, liveGuest, expiredMember] = [sid(), sid(), sid()];
  await db('sessions').insert([
    { sid: expiredGuest, sess: {}, expire: past },
    { sid: liveGuest, sess: {}, expire: future },
    { sid: expiredMember, sess: {}, expire: past, user_id: user.id },
  ]);
  const carts = await db('carts')
    .insert([
      { session_id: expiredGuest },
      { session_id: liveGuest },
      { session_id: expiredMember, user_id: user.id },
    ])
    .returning('id');
  await db('cart_items').insert(
    carts.map(({ id }) => ({ cart_id: id, product_id: product.id, quantity: 1 })),
  );

  const swept = await sweepExpiredSessions(db);
  expect(swept.sessions).toBeGreaterThanOrEqual(2);
  expect(swept.carts).toBeGreaterThanOrEqual(1);
  const left = await db('sessions').whereIn('sid', [expiredGuest, liveGuest, expiredMember]).pluck('sid');
  expect(left).toEqual([liveGuest]);
  // The guest cart of the expired session is gone with its lines; the live guest's and the member's stay.
  const kept = await db('carts')
    .whereIn(
      'id',
      carts.map((c) => c.id),
    )
    .orderBy('id')
    .pluck('session_id');
  expect(kept).toEqual([liveGuest, expiredMember]);
  expect(
    await db('cart_items')
      .whereIn(
        'cart_id',
        carts.map((c) => c.id),
      )
      .count({ n: '*' })
      .first(),
  ).toEqual({ n: 2 });
});
