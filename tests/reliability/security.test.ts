import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiRouter } from '../../src/api/index.ts';
import { routerEndpoints } from '../support/api-endpoints.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';

let app: TestApp;
let tables: string[];
let adminCookie: string;
let ownOrigin: string;
beforeAll(async () => {
  // Production mode behind a TLS proxy, as operators run it.
  app = await startTestApp({ env: { NODE_ENV: 'production', TRUST_PROXY: 'true' } });
  await seedDemo(app);
  adminCookie = (await signedInSession(app, { role: 'admin' })).cookie;
  tables = await watchedTables(app.services.db);
  ownOrigin = new URL(app.url).origin.replace('http:', 'https:');
});
afterAll(() => app?.close());

const https = { 'x-forwarded-proto': 'https' };

describe('security headers and cookies in production', () => {
  it('sends a strict CSP, HSTS, nosniff, a referrer policy and no framing', async () => {
    const res = await fetch(`${app.url}/`, { headers: https });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('sends the same headers on API answers, error pages, static files and cached pages', async () => {
    await fetch(`${app.url}/about`, { headers: https }).then((r) => r.arrayBuffer());
    for (const url of ['/api/posts', '/api/no-such-endpoint', '/no-such-page', '/favicon.ico', '/about']) {
      const res = await fetch(`${app.url}${url}`, { headers: https });
      await res.arrayBuffer();
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(res.headers.get('strict-transport-security'), url).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), url).toBe('strict-origin-when-cross-origin');
    }
  });

  it('allows only its own scripts: each inline script by nonce or hash, rendered or from the page cache', async () => {
    const user = await signedInSession(app);
    for (const headers of [https, https, { ...https, cookie: user.cookie }]) {
      const res = await fetch(`${app.url}/about`, { headers });
      const scriptSrc =
        /script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes = '', body = ''] of scripts) {
        if (/\bsrc="/.test(attributes)) {
          expect(attributes).toMatch(/\bsrc="\/(?!\/)/);
          continue;
        }
        const nonce = /nonce="([^"]+)"/.exec(attributes)?.[1];
        const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
        const allowed =
          (nonce !== undefined && scriptSrc.includes(`'nonce-${nonce}'`)) || scriptSrc.includes(hash);
        expect(allowed, `inline script ${body.slice(0, 60)} under ${scriptSrc.slice(0, 80)}`).toBe(true);
      }
    }
  });

  it('sends no HSTS outside production, where the site may not have TLS', async () => {
    const dev = await startTestApp({ database: app.database, env: { NODE_ENV: 'test' } });
    try {
      const res = await fetch(`${dev.url}/`);
      await res.arrayBuffer();
      expect(res.headers.get('strict-transport-security')).toBeNull();
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    } finally {
      await dev.close();
    }
  });

  it('sets every cookie httpOnly, SameSite and Secure, the guest session too', async () => {
    const product = await app.services.db('products').where({ status: 'active' }).first('id');
    const res = await fetch(`${app.url}/api/cart?action=add`, {
      method: 'POST',
      headers: { ...https, 'content-type': 'application/json' },
      body: JSON.stringify({ productId: product.id }),
    });
    expect(res.status).toBe(201);
    const cookies = res.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/; secure/i);
      expect(cookie).toMatch(/; httponly/i);
      expect(cookie).toMatch(/; samesite=(lax|strict)/i);
    }
  });

  it('sets the session cookie httpOnly, SameSite=Lax and Secure', async () => {
    const user = await createUser(app, { username: 'secure_user', email: 'secure@example.com' });
    const res = await fetch(`${app.url}/api/users?action=login`, {
      method: 'POST',
      headers: { ...https, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'secure_user', password: user.password }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sid=/);
    expect(cookie).toMatch(/; secure/i);
    expect(cookie).toMatch(/; httponly/i);
    expect(cookie).toMatch(/; samesite=lax/i);
  });

  it('hides developer pages and error details', async () => {
    expect((await fetch(`${app.url}/email-debug`, { headers: https })).status).toBe(404);
    expect((await fetch(`${app.url}/_diagnostics/stream`, { headers: https })).status).toBe(404);
  });
});

describe('cross-site requests and redirects', () => {
  it('refuses a sign-in form posted from another site, and an API write with cookies from one', async () => {
    const user = await createUser(app, { username: 'csrf_target', email: 'csrf@example.com' });
    const form = new URLSearchParams({ email: 'csrf@example.com', password: user.password });
    const crossSite = await fetch(`${app.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        ...https,
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
        cookie: 'sid=abc',
      },
      body: form,
    });
    expect(crossSite.status).toBeGreaterThanOrEqual(400);
    expect(crossSite.headers.get('set-cookie') ?? '').not.toMatch(/^sid=/);
    const api = await fetch(`${app.url}/api/comments`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', cookie: 'sid=abc', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(api.status).toBe(403);
  });

  it('refuses every unsafe API endpoint called with an admin’s cookie from another site, and changes nothing', async () => {
    const unsafe = routerEndpoints(apiRouter(app.services)).filter((e) => e.method !== 'GET');
    expect(unsafe.length).toBeGreaterThan(10);
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { referer: 'https://evil.example/page' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: `http://${new URL(app.url).host}` }, // our host, but not our scheme
    ];
    for (const endpoint of unsafe) {
      for (const headers of foreign) {
        const url = endpoint.path.replace(/:\w+/g, '1');
        const before = await fingerprint(app.services.db, tables);
        const res = await fetch(`${app.url}${url}`, {
          method: endpoint.method,
          headers: { ...https, ...headers, cookie: adminCookie, 'content-type': 'application/json' },
          body: '{"title":"x","quantity":1,"productId":1,"approved":true}',
        });
        const line = `${endpoint.method} ${url} ${JSON.stringify(headers)}`;
        expect(res.status, line).toBe(403);
        expect((await res.json()).message, line).toBe('Cross-site request refused.');
        expect(changedTables(before, await fingerprint(app.services.db, tables)), line).toEqual([]);
      }
    }
  });

  it('refuses every form action posted from another site with an admin’s cookie, and changes nothing', async () => {
    const build = (await import(
      pathToFileURL(path.join(inject('buildDir'), 'server/index.js')).href
    )) as ServerBuild;
    const post = await app.services.db('posts').where({ status: 'published' }).first('slug');
    const actions = Object.values(build.routes)
      .filter((route) => route?.module.action && route.path !== undefined)
      .map((route) => `/${route?.path}`.replace(':slug', post.slug).replace(/:\w+/g, '1'));
    expect(actions).toEqual(expect.arrayContaining(['/login', '/checkout', '/admin', '/admin/posts/new']));
    for (const action of actions) {
      const before = await fingerprint(app.services.db, tables);
      const res = await fetch(`${app.url}${action}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          ...https,
          origin: 'https://evil.example',
          cookie: adminCookie,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ intent: 'delete', title: 'x', email: 'a@example.com', content: 'x' }),
      });
      await res.arrayBuffer();
      expect(res.status, action).toBeGreaterThanOrEqual(400);
      expect(res.status, action).toBeLessThan(500);
      expect(changedTables(before, await fingerprint(app.services.db, tables)), action).toEqual([]);
    }
  });

  const OFF_SITE = [
    '//evil.example/x',
    'https://evil.example',
    'https:evil.example',
    'http://127.0.0.1@evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    ' //evil.example',
    'evil.example',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '%2F%2Fevil.example',
  ];
  const stays = (location: string | null) => new URL(location ?? '', ownOrigin).origin === ownOrigin;

  it('never redirects off the site after sign-in, on either sign-in page', async () => {
    const user = await createUser(app, { username: 'redirected', email: 'redirected@example.com' });
    for (const [page, field, id] of [
      ['/login', 'email', 'redirected@example.com'],
      ['/amplify-login', 'username', 'redirected'],
    ] as const) {
      for (const target of [...OFF_SITE, '/shop']) {
        const res = await fetch(`${app.url}${page}`, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...https, origin: ownOrigin, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ [field]: id, password: user.password, redirectTo: target }),
        });
        await res.arrayBuffer();
        const line = `${page} redirectTo=${JSON.stringify(target)}`;
        expect(res.status, line).toBe(302);
        expect(stays(res.headers.get('location')), `${line} → ${res.headers.get('location')}`).toBe(true);
        if (target === '/shop') expect(res.headers.get('location'), line).toBe('/shop');
      }
    }
  });

  it('never redirects a signed-in visitor off the site from the sign-in pages', async () => {
    const { cookie } = await signedInSession(app);
    for (const page of ['/login', '/amplify-login']) {
      for (const target of OFF_SITE) {
        const res = await fetch(`${app.url}${page}?redirectTo=${encodeURIComponent(target)}`, {
          redirect: 'manual',
          headers: { ...https, cookie },
        });
        await res.arrayBuffer();
        expect(res.status, `${page} ${target}`).toBe(302);
        expect(stays(res.headers.get('location')), `${page} ${target} → ${res.headers.get('location')}`).toBe(
          true,
        );
      }
    }
  });
});
