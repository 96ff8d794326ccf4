import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKMARK_MESSAGES } from '../../src/blog/bookmark-schema.ts';
import { renderMarkdown } from '../../src/blog/markdown.ts';
import { mailBody, plainText } from '../../src/blog/newsletter-delivery.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';

const PAGE = `<!doctype html><html><head><title>Plain title</title>
<meta property="og:title" content="The Open Graph &amp; title">
<meta name="description" content="  A page about
  bookmarks. ">
<meta name="twitter:image" content="/og.png">
</head><body><p>Body</p></body></html>`;

let app: TestApp;
let admin: Record<string, string>;
/** The pages' server, on loopback: allowed for this app as an operator allows an intranet host. */
let pages: http.Server;
let origin: string;
/** A second server, on a loopback address the app is not allowed to reach. */
let hidden: http.Server;
const hiddenHits: string[] = [];

beforeAll(async () => {
  pages = http.createServer((req, res) => {
    if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    else if (req.url === '/twitter')
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<meta name="twitter:title" content="Tweeted"><meta name="twitter:description" content="Short."><title>Not this</title>',
        );
    else if (req.url === '/endless') {
      // The head first, then more than the reader takes: it must answer without reading it all.
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<title>Endless</title>');
      const more = () => {
        if (res.write('x'.repeat(64 * 1024))) setImmediate(more);
        else res.once('drain', more);
      };
      more();
      res.on('error', () => {});
    } else if (req.url === '/image') res.writeHead(200, { 'content-type': 'image/png' }).end('not html');
    else if (req.url === '/missing')
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>No</title>');
    else if (req.url === '/to-hidden')
      res.writeHead(302, { location: `http://127.0.0.2:${(hidden.address() as AddressInfo).port}/` }).end();
    else res.writeHead(404).end();
  });
  pages.listen(0, '127.0.0.1');
  await once(pages, 'listening');
  origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  hidden = http.createServer((req, res) => {
    hiddenHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Secret</title>');
  });
  hidden.listen(0, '127.0.0.2');
  await once(hidden, 'listening');
  app = await startTestApp({ env: { IMPORT_ALLOWED_ADDRESSES: '127.0.0.1' } });
  admin = (await signedInSession(app, { role: 'admin' })).headers;
});
afterAll(async () => {
  await app?.close();
  pages?.closeAllConnections();
  pages?.close();
  hidden?.close();
});

async function read(body: unknown, headers = admin) {
  const res = await fetch(`${app.url}/api/admin/bookmarks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

describe('POST /api/admin/bookmarks', () => {
  it("answers the page's title, description and image (Open Graph first, the image made absolute)", async () => {
    const answer = await read({ url: ` ${origin}/page ` });
    expect(answer).toEqual({
      status: 200,
      body: {
        url: `${origin}/page`,
        title: 'The Open Graph & title',
        description: 'A page about bookmarks.',
        image: `${origin}/og.png`,
      },
    });
    expect((await read({ url: `${origin}/twitter` })).body).toMatchObject({
      title: 'Tweeted',
      description: 'Short.',
      image: '',
    });
  });

  it('reads only the first bytes of a page that does not end', async () => {
    const started = Date.now();
    expect((await read({ url: `${origin}/endless` })).body.title).toBe('Endless');
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it('refuses what is not a web address with 400, and a page it cannot read with 422', async () => {
    for (const url of ['', 'not a url', 'ftp://example.com/', 'javascript:alert(1)'])
      expect(await read({ url })).toEqual({ status: 400, body: { message: BOOKMARK_MESSAGES.invalidUrl } });
    expect((await read({})).status).toBe(400);
    for (const path of ['/image', '/missing'])
      expect(await read({ url: `${origin}${path}` })).toEqual({
        status: 422,
        body: { message: BOOKMARK_MESSAGES.unreadable },
      });
  });

  it('never reaches a loopback or private address the operator has not allowed, redirected or not', async () => {
    const port = (hidden.address() as AddressInfo).port;
    for (const url of [
      `http://127.0.0.2:${port}/`,
      `${origin}/to-hidden`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
    ])
      expect((await read({ url })).status, url).toBe(422);
    expect(hiddenHits).toEqual([]);
  });

  it('is for admins only', async () => {
    expect((await read({ url: `${origin}/page` }, { origin: app.url })).status).toBe(401);
    const reader = (await signedInSession(app)).headers;
    expect((await read({ url: `${origin}/page` }, reader)).status).toBe(403);
  });
});

describe('a bookmark card on the site and in mails', () => {
  const shop = { products: new Map(), currency: 'usd', publicUrl: 'https://blog.example' };
  const card = (image: string) =>
    [
      '> **[The page](https://example.com/page)**',
      '> What it is about.',
      ...(image ? [`> ![](${image})`] : []),
    ].join('  \n');

  it('shows its image under the linked title and description; one without an image renders as before', () => {
    const html = renderMarkdown(card('https://example.com/og.png'));
    expect(html).toContain(
      '<blockquote>\n<p><strong><a href="https://example.com/page">The page</a></strong><br>\nWhat it is about.<br>\n<img src="https://example.com/og.png" alt="" loading="lazy" decoding="async"></p>\n</blockquote>',
    );
    expect(renderMarkdown(card(''))).toBe(
      '<blockquote>\n<p><strong><a href="https://example.com/page">The page</a></strong><br>\nWhat it is about.</p>\n</blockquote>',
    );
    const mail = mailBody(html, 'https://blog.example/post/x', shop);
    expect(mail).toContain('<img style="max-width:100%;height:auto" src="https://example.com/og.png"');
    expect(mail).toContain('href="https://example.com/page"');
    expect(plainText(html, 'https://blog.example/post/x', shop)).toContain(
      '[Image] https://example.com/og.png',
    );
  });
});
