import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import vnuJar from 'vnu-jar';
import { createPreviewLink } from '../../src/blog/preview-links.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import { GuestClient } from '../support/shop.ts';

const run = promisify(execFile);
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

let app: TestApp;
let dir: string;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
  dir = await mkdtemp(path.join(tmpdir(), 'penstand-html-'));
});
afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

type VnuMessage = { type: string; url: string; message: string; extract?: string; lastLine?: number };

/** Every page type as each kind of visitor sees it, checked in one run of the Nu HTML Checker. */
it('serves valid HTML on every page type, signed out, signed in and as an admin', {
  timeout: 180_000,
}, async () => {
  const { db } = app.services;
  const post = await publishedPost(app);
  const product = await db('products').where({ status: 'active' }).first('id');
  const guest = new GuestClient(app);
  await guest.add(product.id);
  const order = await guest.checkout();
  expect(order.status).toBe(201);
  const reader = await signedInSession(app);
  const admin = await signedInSession(app, { role: 'admin' });
  const preview = await createPreviewLink(db, app.services.publicUrl, post.id, null);
  // The post page with every search and social field set.
  await db('posts')
    .where({ id: post.id })
    .update({
      meta_title: 'A "quoted" meta title & more',
      meta_description: 'A meta description <with> markup-like text',
      canonical_url: 'https://first.example/original?a=1&b=2',
      social_image: '/uploads/0123456789abcdef0123456789abcdef.png',
      // A product card in the post, and the post under the product page's 'Featured in'.
      content_html: db.raw('content_html || ?', [
        `<div class="product-slot" data-product="${product.id}"></div>`,
      ]),
    });
  await db('post_products').insert({ post_id: post.id, product_id: product.id });

  const pages: Record<string, string[]> = {
    anonymous: [
      '/',
      `/post/${post.slug}`,
      '/blog',
      '/shop',
      `/product/${product.id}`,
      '/cart',
      '/checkout',
      '/login',
      '/signup',
      '/amplify-login',
      '/forgot-password',
      '/confirm-email',
      '/about',
      '/brand-showcase',
      '/orders/lookup',
      '/no-such-page',
      new URL(preview?.url ?? '/').pathname,
    ],
    guest: ['/cart', '/checkout'],
    reader: ['/', `/post/${post.slug}`, '/amplify-demo', '/cart'],
    admin: [
      '/admin',
      '/admin?tab=posts',
      '/admin?tab=comments',
      '/admin?tab=comments&view=all',
      '/admin?tab=products',
      '/admin?tab=orders',
      '/admin?tab=settings',
      '/admin/posts/new',
      `/admin/posts/${post.id}`,
      '/admin/products/new',
      `/admin/products/${product.id}`,
      `/admin/orders/${order.body.id}`,
      '/admin-debug',
    ],
  };
  const cookies: Record<string, string> = {
    anonymous: '',
    guest: `sid=${guest.sid}`,
    reader: reader.cookie,
    admin: admin.cookie,
  };
  const files: string[] = [];
  for (const [who, urls] of Object.entries(pages)) {
    for (const url of urls) {
      const headers: Record<string, string> = { 'user-agent': BROWSER };
      if (cookies[who]) headers.cookie = cookies[who];
      const res = await fetch(`${app.url}${url}`, { headers });
      expect(res.headers.get('content-type'), `${who} ${url}`).toContain('text/html');
      const file = path.join(dir, `${who}${url.replace(/[^\w]+/g, '_')}.html`);
      await writeFile(file, await res.text());
      files.push(file);
    }
  }

  const result = await run('java', ['-jar', vnuJar, '--format', 'json', '--errors-only', ...files], {
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stderr?: string }) => ({ stderr: error.stderr ?? '' }));
  const { messages } = JSON.parse(result.stderr || '{"messages":[]}') as { messages: VnuMessage[] };
  const errors = messages
    .filter((m) => m.type === 'error')
    .map((m) => `${path.basename(m.url)}:${m.lastLine}: ${m.message} ${m.extract ?? ''}`.trim());
  expect(errors).toEqual([]);
});
