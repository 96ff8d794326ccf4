import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { NODE_ENV: 'production', HSTS_INCLUDE_SUBDOMAINS: 'false' } });
});
afterAll(() => app?.close());

it('sends HSTS without includeSubDomains when told to', async () => {
  const res = await fetch(`${app.url}/api/health`);
  expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
});

it('warns once when a proxy speaks to it and TRUST_PROXY is off', async () => {
  for (let i = 0; i < 3; i++)
    await fetch(`${app.url}/api/health`, { headers: { 'x-forwarded-proto': 'https' } }).then((r) =>
      r.arrayBuffer(),
    );
  const warnings = app.logs.filter((l) => String(l.msg).includes('TRUST_PROXY is false'));
  expect(warnings).toHaveLength(1);
  expect(warnings[0].level).toBe(40);
});

it('limits how long a client may take to send a request', () => {
  expect(app.web.server.headersTimeout).toBe(20_000);
  expect(app.web.server.requestTimeout).toBe(120_000);
});
