import { createHash } from 'node:crypto';
import http from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markOrderPaid } from '../../src/orders/payments.ts';
import { createLogger } from '../../src/server/logger.ts';
import { PageCache } from '../../src/server/page-cache.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([
    startTestApp({ env: { PAGE_CACHE_TTL_SECONDS: '60' } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36';

/** Fetches and reads the whole body: a page is stored only once it has been sent in full. */
async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return res;
}

describe('the anonymous page cache', () => {
  it('renders a page once and then serves it stored, with a CSP that allows exactly its inline scripts', async () => {
    const url = `${app.url}/?cache-test=1`;
    const first = await fetch(url, { headers: { 'user-agent': BROWSER } });
    expect(first.headers.get('x-cache')).toBe('MISS');
    const firstHtml = await first.text();
    await new Promise((r) => setTimeout(r, 200)); // stored after compression
    const second = await fetch(url, { headers: { 'user-agent': BROWSER } });
    expect(second.headers.get('x-cache')).toBe('HIT');
    const html = await second.text();
    expect(html).toBe(firstHtml);
    const csp = second.headers.get('content-security-policy') ?? '';
    expect(csp).not.toContain('nonce-');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      (m) => !/\ssrc=/.test(m[1]),
    );
    expect(inline.length).toBeGreaterThan(0);
    for (const [, , code] of inline) {
      expect(csp).toContain(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
    }
  });

  it('sends a stored page with the headers of a rendered one, for GET and HEAD', async () => {
    const url = `${app.url}/?cache-test=headers`;
    const headers = { 'user-agent': BROWSER, 'accept-encoding': 'gzip' };
    const rendered = await get(url, headers);
    expect(rendered.headers.get('x-cache')).toBe('MISS');
    await new Promise((r) => setTimeout(r, 200));
    const stored = await get(url, headers);
    expect(stored.headers.get('x-cache')).toBe('HIT');
    const same = [
      'x-content-type-options',
      'referrer-policy',
      'x-frame-options',
      'cross-origin-opener-policy',
      'permissions-policy',
      'strict-transport-security',
      'content-type',
      'content-encoding',
    ];
    for (const name of same)
      expect([name, stored.headers.get(name)]).toEqual([name, rendered.headers.get(name)]);
    expect(stored.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    expect(stored.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(stored.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(new Date(stored.headers.get('last-modified') ?? '').getTime()).toBeGreaterThan(
      Date.now() - 60_000,
    );
    // The same policy but for the scripts: hashes of the stored page's, instead of a nonce.
    const withoutScripts = (csp: string | null) => csp?.replace(/script-src [^;]*/, '');
    expect(withoutScripts(stored.headers.get('content-security-policy'))).toBe(
      withoutScripts(rendered.headers.get('content-security-policy')),
    );
    const ids = [rendered, stored].map((r) => r.headers.get('x-request-id'));
    expect(ids[1]).toMatch(/^[\w-]{8,64}$/);
    expect(ids[1]).not.toBe(ids[0]);

    const head = await fetch(url, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('x-cache')).toBe('HIT');
    expect(head.headers.get('content-length')).toBe(stored.headers.get('content-length'));
    expect(head.headers.get('etag')).toBe(stored.headers.get('etag'));
    expect(await head.text()).toBe('');
  });

  it('renders a page once for a burst of readers: the others wait for that render', async () => {
    const url = `${app.url}/?cache-test=burst`;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => get(url, { 'user-agent': BROWSER })),
    );
    const sources = responses.map((r) => r.headers.get('x-cache')).sort();
    expect(sources).toEqual(['HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'MISS']);
  });

  it('answers a matching If-None-Match with 304', async () => {
    const url = `${app.url}/?cache-test=etag`;
    await get(url);
    await new Promise((r) => setTimeout(r, 200));
    const hit = await get(url);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    const etag = hit.headers.get('etag');
    expect(etag).toBeTruthy();
    // node:http, not fetch: fetch adds Cache-Control: no-cache to conditional requests.
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(url, { headers: { 'if-none-match': etag ?? '' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(304);
  });

  it('keeps one entry per theme and never serves stored pages to visitors with a session', async () => {
    const url = `${app.url}/?cache-test=theme`;
    await get(url, { cookie: 'theme=dark' });
    await new Promise((r) => setTimeout(r, 200));
    const dark = await fetch(url, { headers: { cookie: 'theme=dark' } });
    expect(dark.headers.get('x-cache')).toBe('HIT');
    expect(await dark.text()).toMatch(/<html lang="en" class="dark"/);
    const light = await fetch(url, { headers: { cookie: 'theme=light' } });
    expect(light.headers.get('x-cache')).toBe('MISS');
    expect(await light.text()).toMatch(/<html lang="en" class="light"/);

    const { cookie } = await signedInSession(app);
    const personal = await fetch(url, { headers: { cookie: `${cookie}; theme=dark` } });
    expect(personal.headers.get('x-cache')).toBeNull();
  });

  it('never stores a page that says no-store: an order opened by its link shows its payment as it is now', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { price: 900 });
    const guest = new GuestClient(app);
    await guest.add(product.id);
    const { body: order } = await guest.checkout(validCheckout);
    const first = await get(order.orderUrl, { 'user-agent': BROWSER });
    expect(first.headers.get('cache-control')).toContain('no-store');
    await markOrderPaid(db, order.id, null, {});
    const second = await fetch(order.orderUrl, { headers: { 'user-agent': BROWSER } });
    expect(second.headers.get('x-cache')).toBe('MISS');
    expect(await second.text()).toContain('Payment received');
  });

  it('drops stored pages on invalidation, and a stored page still hydrates in a browser', async () => {
    const url = `${app.url}/?cache-test=invalidate`;
    await get(url);
    await new Promise((r) => setTimeout(r, 200));
    expect((await get(url)).headers.get('x-cache')).toBe('HIT');
    app.services.pageCache.invalidate();
    expect((await get(url)).headers.get('x-cache')).toBe('MISS');

    await new Promise((r) => setTimeout(r, 200));
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    const response = await page.goto('/?cache-test=invalidate');
    expect(response?.headers()['x-cache']).toBe('HIT');
    await page.waitForSelector('html[data-hydrated]');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe("readers' API answers", () => {
  const api = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${app.url}${path}`, { headers });
    return { res, body: await res.json() };
  };
  const createPublished = async (headers: Record<string, string>, title: string) => {
    const res = await fetch(`${app.url}/api/posts`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title, content: 'Body', excerpt: 'x', category: 'Life', status: 'published' }),
    });
    expect(res.status).toBe(201);
  };

  it('stores a post list once, sends it gzipped or plain, and drops it when an admin writes', async () => {
    const admin = await signedInSession(app, { role: 'admin' });
    await createPublished(admin.headers, 'Cached API first');
    const path = '/api/posts?limit=5&category=Life';
    const first = await api(path);
    expect(first.res.headers.get('x-cache')).toBe('MISS');
    expect(first.res.headers.get('cache-control')).toBe('public, max-age=30');
    const gzipped = await api(path, { 'accept-encoding': 'gzip' });
    expect(gzipped.res.headers.get('x-cache')).toBe('HIT');
    expect(gzipped.res.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.body).toEqual(first.body);
    const plain = await api(path, { 'accept-encoding': 'identity' });
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    expect(plain.body).toEqual(first.body);

    // A change no admin made through the app invalidates nothing: readers see it after the TTL.
    await app.services
      .db('posts')
      .where({ title: 'Cached API first' })
      .update({ excerpt: 'Quietly changed' });
    const unchanged = await api(path);
    expect(unchanged.res.headers.get('x-cache')).toBe('HIT');
    expect(unchanged.body).toEqual(first.body);

    await createPublished(admin.headers, 'Cached API second');
    const after = await api(path);
    expect(after.res.headers.get('x-cache')).toBe('MISS');
    expect(after.body.posts.map((p: { title: string }) => p.title)).toContain('Cached API second');
    expect(after.body.posts.find((p: { title: string }) => p.title === 'Cached API first').excerpt).toBe(
      'Quietly changed',
    );
    expect(after.body.pagination.total).toBe(first.body.pagination.total + 1);
  });

  it('sends a stored answer with the headers of a computed one, and never to a visitor with a session', async () => {
    const path = '/api/posts?limit=3&tag=headers-test';
    const computed = await api(path, { 'accept-encoding': 'gzip' });
    expect(computed.res.headers.get('x-cache')).toBe('MISS');
    const stored = await api(path, { 'accept-encoding': 'gzip' });
    expect(stored.res.headers.get('x-cache')).toBe('HIT');
    expect(stored.body).toEqual(computed.body);
    for (const name of [
      'cache-control',
      'vary',
      'content-type',
      'content-encoding',
      'x-frame-options',
      'referrer-policy',
    ])
      expect([name, stored.res.headers.get(name)]).toEqual([name, computed.res.headers.get(name)]);
    expect(stored.res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(stored.res.headers.get('x-request-id')).toBeTruthy();

    const admin = await signedInSession(app, { role: 'admin' });
    const live = await api(path, admin.headers);
    expect(live.res.headers.get('x-cache')).toBeNull();
    expect(live.res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('computes a missing answer once for a burst of readers', async () => {
    const path = '/api/posts?limit=3&page=1';
    const sources = await Promise.all(
      Array.from({ length: 10 }, async () => (await api(path)).res.headers.get('x-cache')),
    );
    expect(sources.sort()).toEqual(['HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT', 'MISS']);
  });

  it('answers admins live, and stores single posts, categories and tags but not a missing post', async () => {
    const admin = await signedInSession(app, { role: 'admin' });
    await createPublished(admin.headers, 'Cached API single');
    const list = await api('/api/posts?status=all', admin.headers);
    expect(list.res.headers.get('x-cache')).toBeNull();
    expect(list.res.headers.get('cache-control')).toBe('private, no-store');

    for (const path of [
      '/api/posts?slug=cached-api-single',
      '/api/posts?action=categories',
      '/api/posts?action=tags',
    ]) {
      expect((await api(path)).res.headers.get('x-cache')).toBe('MISS');
      expect((await api(path)).res.headers.get('x-cache')).toBe('HIT');
    }
    expect((await api('/api/posts?slug=cached-api-single')).body.post.title).toBe('Cached API single');
    expect(
      (await api('/api/posts?slug=cached-api-single', admin.headers)).res.headers.get('x-cache'),
    ).toBeNull();

    const missing = await api('/api/posts?slug=not-written-yet');
    expect(missing.res.status).toBe(404);
    // Written behind the app's back (no invalidation): found at once, so the 404 was not stored.
    await app.services.db('posts').insert({
      title: 'Not written yet',
      slug: 'not-written-yet',
      content: 'Body',
      excerpt: 'x',
      category: 'Life',
      status: 'published',
      published_at: new Date(),
    });
    const written = await api('/api/posts?slug=not-written-yet');
    expect(written.res.status).toBe(200);
    expect(written.body.post.title).toBe('Not written yet');
  });
});

it('carries an invalidation to the other processes on the same database within a second', async () => {
  const log = createLogger({ level: 'silent' });
  const a = new PageCache({ ttlMs: 60_000 });
  const b = new PageCache({ ttlMs: 60_000 });
  await a.listen(app.database.url, log);
  await b.listen(app.database.url, log);
  try {
    await b.store('k', Buffer.from('<html></html>'), 'text/html', {}, b.currentVersion());
    expect(b.get('k')).toBeDefined();
    a.invalidate();
    let gone = false;
    for (let i = 0; i < 20 && !gone; i++) {
      await new Promise((r) => setTimeout(r, 50));
      gone = b.get('k') === undefined;
    }
    expect(gone).toBe(true);
  } finally {
    await a.close();
    await b.close();
  }
});

describe('stale-while-revalidate', () => {
  let swr: TestApp;
  beforeAll(async () => {
    swr = await startTestApp({ env: { PAGE_CACHE_TTL_SECONDS: '1', PAGE_CACHE_STALE_SECONDS: '120' } });
    await swr.services.db('posts').insert({
      title: 'Kept fresh',
      slug: 'kept-fresh',
      content: 'Body',
      excerpt: 'x',
      category: 'Life',
      status: 'published',
      published_at: new Date(),
    });
  });
  afterAll(async () => {
    await swr?.close();
  });

  it('serves a page past its TTL at once, renders it again in the background, then serves the new one', async () => {
    const url = `${swr.url}/post/kept-fresh`;
    expect((await get(url, { 'user-agent': BROWSER })).headers.get('x-cache')).toBe('MISS');
    await new Promise((r) => setTimeout(r, 200));
    const stored = await fetch(url, { headers: { 'user-agent': BROWSER } });
    expect(stored.headers.get('x-cache')).toBe('HIT');
    const storedHtml = await stored.text();
    // Stored whole, even for a browser: complete without JavaScript, no skeletons waiting for data.
    expect(storedHtml).toContain('No comments yet');
    expect(storedHtml).not.toContain('comment-skeleton');

    // A change that invalidates nothing (as a view count would be): readers see it after the TTL.
    await swr.services.db('posts').where({ slug: 'kept-fresh' }).update({ excerpt: 'Revised excerpt' });
    await new Promise((r) => setTimeout(r, 1_200));
    const stale = await fetch(url, { headers: { 'user-agent': BROWSER } });
    expect(stale.headers.get('x-cache')).toBe('STALE');
    expect(await stale.text()).not.toContain('Revised excerpt');

    let refreshed = '';
    for (let i = 0; i < 50 && !refreshed.includes('Revised excerpt'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(url, { headers: { 'user-agent': BROWSER } });
      if (res.headers.get('x-cache') === 'HIT') refreshed = await res.text();
      else await res.arrayBuffer();
    }
    expect(refreshed).toContain('Revised excerpt');
  });

  it('never serves a stale page after an invalidation, and ignores a forged refresh header', async () => {
    const url = `${swr.url}/?swr=invalidate`;
    await get(url);
    await new Promise((r) => setTimeout(r, 1_200));
    swr.services.pageCache.invalidate();
    expect((await get(url)).headers.get('x-cache')).toBe('MISS');
    await new Promise((r) => setTimeout(r, 200));
    const forged = await get(url, { 'x-page-cache-refresh': 'guess' });
    expect(forged.headers.get('x-cache')).toBe('HIT');
  });
});
