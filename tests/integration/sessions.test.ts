import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';

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
  expect(same.status).toBe(404);
  expect(await same.json()).toEqual({ message: 'No API endpoint at POST /api/health' });
  const bearer = await fetch(`${app.url}/api/health`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sid}`, origin: 'https://evil.example' },
  });
  expect(bearer.status).toBe(404);
});
