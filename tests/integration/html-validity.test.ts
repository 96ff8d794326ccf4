import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import vnuJar from 'vnu-jar';
import { unsubscribeToken } from '../../src/blog/newsletter-delivery.ts';
import { createPreviewLink } from '../../src/blog/preview-links.ts';
import { linkKey } from '../../src/db/site-secret.ts';
import { orderLink } from '../../src/orders/access-key.ts';
import { executeOrderCommand } from '../../src/orders/changes.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import { GuestClient, validCheckout } from '../support/shop.ts';

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
/** A page to check: fetched with GET, or the page a form post answers with (its other states). */
type Page = string | { url: string; form: Record<string, string> };

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
  const orderPage = new URL(await orderLink(db, app.services.publicUrl, order.body.id));
  const reader = await signedInSession(app);
  const admin = await signedInSession(app, { role: 'admin' });
  // The reader's own order, shipped, for the Account page's 'My orders'.
  const readerJson = { ...reader.headers, 'content-type': 'application/json' };
  await fetch(`${app.url}/api/cart?action=add`, {
    method: 'POST',
    headers: readerJson,
    body: JSON.stringify({ productId: product.id, quantity: 1 }),
  });
  const readerOrder = await fetch(`${app.url}/api/orders`, {
    method: 'POST',
    headers: readerJson,
    body: JSON.stringify(validCheckout),
  });
  const readerOrderId = ((await readerOrder.json()) as { id: number }).id;
  await executeOrderCommand(db, readerOrderId, { type: 'RecordPayment' });
  await executeOrderCommand(db, readerOrderId, {
    type: 'ShipOrder',
    trackingNumber: 'T-1',
    carrier: 'Post & Parcel',
    trackingUrl: 'https://track.example/?n=T-1&x=1',
  });
  const [subscriber] = await db('newsletter_subscribers')
    .insert({ email: 'reader@example.com', token: randomBytes(24).toString('base64url') })
    .returning(['id', 'token']);
  const unsubscribe = `/newsletter/unsubscribe?token=${await unsubscribeToken(db, subscriber.id)}`;
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
  // A thread: a comment, an approved reply marked Author, and a pending reply for moderation.
  const [thread] = await db('comments')
    .insert({
      post_id: post.id,
      author: 'Rosa',
      email: 'rosa@example.com',
      content: 'A question',
      approved: true,
    })
    .returning('id');
  await db('comments').insert([
    {
      post_id: post.id,
      parent_id: thread.id,
      reply_to_id: thread.id,
      author: 'Alex',
      email: 'a@example.com',
      content: 'An answer',
      approved: true,
      by_author: true,
    },
    {
      post_id: post.id,
      parent_id: thread.id,
      reply_to_id: thread.id,
      author: 'Sam',
      email: 's@example.com',
      content: 'Me too',
    },
  ]);
  const commentsUnsubscribe = `/comments/unsubscribe?token=${thread.id}.${await linkKey(db, `comment-notices:${thread.id}`)}`;

  const pages: Record<string, Page[]> = {
    anonymous: [
      '/',
      `/post/${post.slug}`,
      // Highlighted code, a captioned figure and the reading-progress bar.
      '/post/build-a-markdown-blog-engine-from-scratch',
      // The reply form opened under a comment without JavaScript, beside the script's template.
      `/post/${post.slug}?replyTo=${thread.id}`,
      '/blog',
      '/tag/design-systems',
      '/category/technology',
      '/author/admin',
      '/shop',
      `/product/${product.id}`,
      '/cart',
      '/checkout',
      '/login',
      '/signup',
      '/amplify-login',
      '/amplify-signup',
      '/forgot-password',
      { url: '/forgot-password', form: { intent: 'send', email: 'someone@example.com' } },
      '/amplify-forgot-password',
      '/confirm-email',
      '/about',
      '/brand-showcase',
      '/orders/lookup',
      '/newsletter',
      { url: '/newsletter', form: { email: 'new-reader@example.com' } },
      { url: '/newsletter', form: { email: 'not-an-address' } },
      `/newsletter/confirm?token=${subscriber.token}`,
      '/newsletter/confirm?token=not-a-token',
      unsubscribe,
      { url: unsubscribe, form: {} },
      commentsUnsubscribe,
      { url: commentsUnsubscribe, form: {} },
      '/no-such-page',
      new URL(preview?.url ?? '/').pathname,
    ],
    guest: ['/cart', '/checkout', `${orderPage.pathname}${orderPage.search}`],
    reader: [
      '/',
      `/post/${post.slug}`,
      '/amplify-demo',
      '/cart',
      '/account',
      { url: '/account', form: { intent: '2fa-setup' } },
      { url: '/account', form: { intent: 'profile', username: 'no spaces' } },
      { url: '/account', form: { intent: 'delete-account', confirmEmail: 'not-mine@example.com' } },
      '/account?avatar=tooLarge',
    ],
    admin: [
      '/admin',
      '/admin?popular=all',
      '/admin?tab=analytics',
      '/admin?tab=analytics&range=custom&from=2026-01-01&to=2026-02-30',
      '/admin?tab=posts',
      '/admin?tab=comments',
      '/admin?tab=comments&view=all',
      '/admin?tab=products',
      '/admin?tab=orders',
      '/admin?tab=subscribers',
      '/admin?tab=activity',
      '/admin?tab=settings',
      '/admin/posts/new',
      `/admin/posts/${post.id}`,
      '/admin/products/new',
      `/admin/products/${product.id}`,
      '/admin/import',
      `/admin/orders/${order.body.id}`,
      '/admin-debug',
      '/account',
    ],
  };
  const cookies: Record<string, string> = {
    anonymous: '',
    guest: `sid=${guest.sid}`,
    reader: reader.cookie,
    admin: admin.cookie,
  };
  const files: string[] = [];
  for (const [who, list] of Object.entries(pages)) {
    for (const page of list) {
      const { url, form } = typeof page === 'string' ? { url: page, form: undefined } : page;
      const headers: Record<string, string> = { 'user-agent': BROWSER, origin: app.url };
      if (cookies[who]) headers.cookie = cookies[who];
      if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
      const res = await fetch(`${app.url}${url}`, {
        method: form ? 'POST' : 'GET',
        headers,
        body: form && new URLSearchParams(form).toString(),
        redirect: 'manual',
      });
      const name = `${who} ${form ? 'POST ' : ''}${url}`;
      const html = await res.text();
      // The page meant, not a redirect or a refusal (a bad address on a form is a 400, a missing page a 404).
      expect([200, 400, 404], `${name}: ${res.status} ${res.headers.get('location') ?? ''}`).toContain(
        res.status,
      );
      expect(res.headers.get('content-type'), name).toContain('text/html');
      const file = path.join(dir, `${files.length}-${name.replace(/[^\w]+/g, '_').slice(0, 80)}.html`);
      await writeFile(file, html);
      files.push(file);
    }
  }

  const { stderr } = await run('java', ['-jar', vnuJar, '--format', 'json', '--errors-only', ...files], {
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { code?: unknown; stderr?: string }) => {
    // The checker exits with 1 when it found errors, its report on stderr as ever; anything else
    // (no java, a crash) means nothing was checked, and the test must not pass.
    if (error.code !== 1) throw error;
    return { stderr: error.stderr ?? '' };
  });
  // An empty or garbled report fails here too: only a report that lists its messages counts.
  const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] };
  expect(Array.isArray(messages)).toBe(true);
  // With --errors-only every message is an error, or a document the checker could not read.
  const errors = messages.map((m) =>
    `${m.type} ${path.basename(m.url ?? '')}:${m.lastLine}: ${m.message} ${m.extract ?? ''}`.trim(),
  );
  expect(errors).toEqual([]);
});
