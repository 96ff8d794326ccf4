import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../support/auth.ts';

let app: TestApp;
beforeAll(async () => {
  // Production mode behind a TLS proxy, as operators run it.
  app = await startTestApp({ env: { NODE_ENV: 'production', TRUST_PROXY: 'true' } });
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

  it('never redirects off the site after sign-in', async () => {
    const user = await createUser(app, { username: 'redirected', email: 'redirected@example.com' });
    for (const target of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const res = await fetch(`${app.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          ...https,
          origin: new URL(app.url).origin.replace('http:', 'https:'),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          email: 'redirected@example.com',
          password: user.password,
          redirectTo: target,
        }),
      });
      expect(res.status, target).toBe(302);
      expect(res.headers.get('location'), target).toBe('/');
    }
  });
});
