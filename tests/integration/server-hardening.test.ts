import net from 'node:net';
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

it('keeps a keep-alive connection open after refusing a body that was sent whole', async () => {
  const socket = net.connect(app.web.port, '127.0.0.1');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const answered = async (count: number) => {
    await expect
      .poll(() => Buffer.concat(received).toString('latin1').split('HTTP/1.1 ').length - 1)
      .toBe(count);
  };
  const body = 'x'.repeat(600_000);
  socket.write(
    `POST /api/cart?action=add HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  await answered(1);
  expect(Buffer.concat(received).toString('latin1')).toMatch(/^HTTP\/1\.1 413 /);
  // Past the linger time given to abusive clients: a mistake's connection must still be open.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await answered(2);
  expect(Buffer.concat(received).toString('latin1')).toMatch(/HTTP\/1\.1 200 /);
  socket.destroy();
});

it("lists only a page route's own methods in Allow", async () => {
  const allow = async (method: string, path: string, body?: string) => {
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    await res.arrayBuffer();
    return [res.status, res.headers.get('allow')];
  };
  expect(await allow('OPTIONS', '/about')).toEqual([204, 'GET, HEAD']);
  expect(await allow('OPTIONS', '/login')).toEqual([204, 'GET, HEAD, POST']);
  expect(await allow('POST', '/about', 'name=x')).toEqual([405, 'GET, HEAD']);
  expect(await allow('POST', '/blog.data', 'name=x')).toEqual([405, 'GET, HEAD']);
  expect(await allow('DELETE', '/shop')).toEqual([405, 'GET, HEAD']);
  expect(await allow('DELETE', '/login')).toEqual([405, 'GET, HEAD, POST']);
  expect(await allow('PUT', '/post/any-slug')).toEqual([405, 'GET, HEAD, POST']);
});
