import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RENAMED_DEMO_IMAGES } from '../../src/demo/renamed-images.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** Reads the response chunk by chunk, as a browser would receive it. */
function readChunks(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; chunks: string[] }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: string[] = [];
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, chunks }));
      })
      .on('error', reject);
  });
}

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

it('streams the shell before the deferred data resolves', async () => {
  const { status, chunks } = await readChunks(`${app.url}/_diagnostics/stream?delay=1500`, {
    'user-agent': BROWSER,
  });
  expect(status).toBe(200);
  expect(chunks.length).toBeGreaterThan(1);
  // The shell may span several chunks (React flushes 4 KB at a time); all of it must arrive
  // in chunks before the one carrying the deferred data.
  const resolvedAt = chunks.findIndex((chunk) => chunk.includes('resolved after 1500 ms'));
  expect(resolvedAt).toBeGreaterThan(0);
  expect(chunks.slice(0, resolvedAt).join('')).toContain('Waiting for deferred data');
});

it('streams through compression too', async () => {
  const res = await fetch(`${app.url}/_diagnostics/stream?delay=1000`, {
    headers: { 'user-agent': BROWSER, 'accept-encoding': 'gzip' },
  });
  expect(res.headers.get('content-encoding')).toBe('gzip');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  // Read the shell (possibly several chunks) up to the pending marker.
  let first = '';
  while (!first.includes('Waiting for deferred data')) {
    const r = await reader.read();
    if (r.done) break;
    first += decoder.decode(r.value, { stream: true });
  }
  expect(first).toContain('Waiting for deferred data');
  expect(first).not.toContain('resolved after');
  let rest = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) rest += decoder.decode(r.value);
  expect(rest).toContain('resolved after 1000 ms');
});

it('renders the whole page at once for crawlers', async () => {
  const { chunks } = await readChunks(`${app.url}/_diagnostics/stream?delay=300`, {
    'user-agent': 'Googlebot/2.1',
  });
  const html = chunks.join('');
  expect(html).toContain('resolved after 300 ms');
});

it('sends a CSP whose script nonce every script tag carries', async () => {
  const res = await fetch(`${app.url}/`);
  const csp = res.headers.get('content-security-policy') ?? '';
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  const html = await res.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
});

it('serves hashed assets as immutable', async () => {
  const html = await (await fetch(`${app.url}/`)).text();
  const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  expect(asset).toBeTruthy();
  const res = await fetch(`${app.url}${asset}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
});

it('answers unknown pages with the 404 page and unknown API paths with JSON', async () => {
  const page = await fetch(`${app.url}/no-such-page`);
  expect(page.status).toBe(404);
  expect(await page.text()).toContain('<h1>Page not found</h1>');
  const api = await fetch(`${app.url}/api/no-such-thing`);
  expect(api.status).toBe(404);
  expect(await api.json()).toEqual({ message: 'No API endpoint at GET /api/no-such-thing' });
});

it('names a missing record on every page with an id, and says page not found for unknown addresses', async () => {
  const { cookie } = await signedInSession(app, { role: 'admin' });
  for (const [path, heading] of [
    ['/admin/orders/99999', 'Order not found'],
    ['/admin/posts/99999', 'Post not found'],
    ['/admin/products/99999', 'Product not found'],
    ['/admin/products/abc', 'Product not found'],
  ]) {
    const res = await fetch(`${app.url}${path}`, { headers: { cookie } });
    const html = await res.text();
    expect(res.status, path).toBe(404);
    expect(html, path).toContain(`<h1>${heading}</h1>`);
    expect(html, path).not.toContain('Did you forget');
  }
  const unknown = await fetch(`${app.url}/no-such-page`);
  expect(unknown.status).toBe(404);
  const html = await unknown.text();
  expect(html).toContain('<h1>Page not found</h1>');
  expect(html).not.toContain('Did you forget');
});

it('compresses a rendered page in a few flushes, not one per chunk the renderer writes', async () => {
  await seedDemo(app);
  const { cookie } = await signedInSession(app);
  const body = await new Promise<Buffer>((resolve, reject) => {
    http
      .get(
        `${app.url}/`,
        { headers: { cookie, 'user-agent': BROWSER, 'accept-encoding': 'gzip' } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () => resolve(Buffer.concat(parts)));
        },
      )
      .on('error', reject);
  });
  expect(zlib.gunzipSync(body).toString()).toContain('</html>');
  // Each gzip flush ends in an empty stored block: 00 00 ff ff.
  let flushes = 0;
  for (let at = body.indexOf(SYNC_MARK); at !== -1; at = body.indexOf(SYNC_MARK, at + 1)) flushes++;
  expect(flushes).toBeLessThanOrEqual(3);
});

const SYNC_MARK = Buffer.from([0, 0, 0xff, 0xff]);

it('redirects the demo images the drawn set renamed to the files that replaced them', async () => {
  for (const [old, current] of Object.entries(RENAMED_DEMO_IMAGES)) {
    const res = await fetch(`${app.url}${old}`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get('location') ?? '', app.url).pathname).toBe(current);
    const image = await fetch(`${app.url}${current}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
  }
});
