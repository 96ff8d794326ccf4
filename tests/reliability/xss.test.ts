import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoContent } from '../../src/demo/seed.ts';
import { ensureAdmin } from '../../src/identity/admin.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { launchBrowser, newContext } from '../support/browser.ts';
import { packedPayloads, XSS_CORPUS, XSS_FLAG_CORPUS } from '../support/xss-corpus.ts';

/**
 * The XSS corpus goes in through the API into every stored field a page shows (post, comment,
 * product, settings, order customer fields), and every page that shows it is opened in Chromium:
 * no dialog may open, no payload may set its window flag, and no markup may keep an event
 * handler or a javascript:/data: link.
 */
let app: TestApp;
let browser: Browser;
let admin: Record<string, string>;
let adminSid: string;
beforeAll(async () => {
  app = await startTestApp({ env: { CHECKOUT_RATE_LIMIT: '1000' } });
  await ensureAdmin(app.services.db, undefined);
  await seedDemoContent(app.services.db);
  const session = await signedInSession(app, { role: 'admin' });
  admin = session.headers;
  adminSid = session.sid;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function api(method: string, path: string, body: unknown, headers: Record<string, string> = admin) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { origin: app.url, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  expect(res.status, `${method} ${path}: ${JSON.stringify(json).slice(0, 200)}`).toBeLessThan(300);
  return json;
}

/** Text k of the packed corpus for a field of at most `limit` characters (cycling). */
const pick = (limit: number, k: number) => {
  const packed = packedPayloads(limit);
  return packed[k % packed.length] as string;
};
const ALL = [...XSS_CORPUS, ...XSS_FLAG_CORPUS].join('\n\n');

type Visit = { path: string; admin: boolean };
const visits: Visit[] = [];
const published: { postIds: number[]; slugs: string[]; productIds: number[]; orderIds: number[] } = {
  postIds: [],
  slugs: [],
  productIds: [],
  orderIds: [],
};

async function storeCorpus(): Promise<void> {
  // Enough records that every payload fits in every short field of one of them.
  const count = packedPayloads(100).length;
  for (let k = 0; k < count; k++) {
    const { post } = await api('POST', '/api/posts', {
      title: pick(200, k),
      excerpt: pick(1_000, k),
      content: k === 0 ? ALL : pick(1_000, k),
      category: 'Technology',
      tags: packedPayloads(50).filter((_, i) => i % count === k),
      status: 'published',
    });
    published.postIds.push(post.id);
    published.slugs.push(post.slug);
    const product = await api('POST', '/api/products', {
      name: pick(200, k),
      description: k === 0 ? ALL.slice(0, 10_000) : pick(1_000, k),
      category: 'Books',
      price: 100 + k,
      stock: 3,
      featured: true,
    });
    published.productIds.push(product.id);
  }
  const firstPost = published.postIds[0] as number;
  // One comment through the API (it is rate-limited per network), the rest written as it stores them.
  const { comment } = await api(
    'POST',
    '/api/comments',
    { postId: firstPost, author: pick(100, 0), email: 'x@example.com', content: ALL.slice(0, 5_000) },
    { origin: app.url },
  );
  await app.services.db('comments').where({ id: comment.id }).update({ approved: true });
  await app.services.db('comments').insert(
    packedPayloads(100).map((author, k) => ({
      post_id: firstPost,
      author,
      email: 'x@example.com',
      content: pick(1_000, k),
      approved: k % 2 === 0,
    })),
  );
  // Orders from a shopper whose customer fields carry the corpus; the admin pages show them.
  const shopper = (await signedInSession(app)).headers;
  for (let k = 0; k < packedPayloads(100).length; k++) {
    await api('POST', '/api/cart?action=add', { productId: published.productIds[k], quantity: 1 }, shopper);
    const order = await api(
      'POST',
      '/api/orders',
      {
        customerName: pick(200, k),
        customerEmail: `xss${k}@example.com`,
        address: pick(500, k),
        city: pick(200, k + 1),
        zipCode: '12345',
        country: 'HK',
      },
      shopper,
    );
    published.orderIds.push(order.id);
  }
}

/** Opens a page and reports what ran or survived in it. */
async function inspect(page: Page, path: string) {
  const res = await page.goto(path, { waitUntil: 'load' });
  expect(res?.status(), path).toBeLessThan(400);
  return page.evaluate(() => ({
    flag: (window as unknown as { __xss?: unknown }).__xss ?? null,
    handlers: [...document.querySelectorAll('*')]
      .filter((el) => [...el.attributes].some((a) => a.name.toLowerCase().startsWith('on')))
      .map((el) => el.outerHTML.slice(0, 120)),
    activeLinks: [...document.querySelectorAll('[href],[src],[action],[data],[formaction]')]
      .filter((el) =>
        ['href', 'src', 'action', 'data', 'formaction', 'xlink:href'].some((a) =>
          /^\s*(javascript|vbscript|data:text\/html)/i.test(el.getAttribute(a) ?? ''),
        ),
      )
      .map((el) => el.outerHTML.slice(0, 120)),
  }));
}

async function openContext(
  asAdmin: boolean,
): Promise<{ context: BrowserContext; page: Page; dialogs: string[] }> {
  const context = await newContext(browser, app.url);
  if (asAdmin) await addSessionCookie(context, app.url, adminSid);
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(`${page.url()}: ${dialog.type()} ${dialog.message()}`);
    await dialog.dismiss();
  });
  return { context, page, dialogs };
}

describe('the XSS corpus through every stored field', () => {
  it('renders inert on every page that shows it, in Chromium', async () => {
    await storeCorpus();
    const settingsRounds = packedPayloads(500).length;
    for (const slug of published.slugs) visits.push({ path: `/post/${slug}`, admin: false });
    for (const id of published.productIds) visits.push({ path: `/product/${id}`, admin: false });
    for (const path of ['/', '/blog', '/blog?page=2', '/shop', '/shop?page=2', '/cart', '/checkout'])
      visits.push({ path, admin: false });
    visits.push({ path: `/?q=${encodeURIComponent(XSS_CORPUS[0])}`, admin: false });
    for (const tab of ['dashboard', 'posts', 'products', 'comments&view=all', 'orders'])
      visits.push({ path: `/admin?tab=${tab}`, admin: true });
    for (const id of published.postIds.slice(0, 2)) visits.push({ path: `/admin/posts/${id}`, admin: true });
    for (const id of published.productIds.slice(0, 2))
      visits.push({ path: `/admin/products/${id}`, admin: true });
    for (const id of published.orderIds) visits.push({ path: `/admin/orders/${id}`, admin: true });

    const problems: string[] = [];
    const reader = await openContext(false);
    const editor = await openContext(true);
    // The reader's cart holds corpus products, so /cart and /checkout show them.
    for (const productId of published.productIds.slice(0, 3)) {
      const res = await reader.context.request.post('/api/cart?action=add', {
        data: { productId, quantity: 1 },
        headers: { origin: app.url },
      });
      expect(res.status()).toBe(201);
    }
    const check = async (visit: Visit) => {
      const { page } = visit.admin ? editor : reader;
      const found = await inspect(page, visit.path);
      if (found.flag !== null) problems.push(`${visit.path}: a payload ran (window.__xss)`);
      for (const h of found.handlers) problems.push(`${visit.path}: event handler kept: ${h}`);
      for (const l of found.activeLinks) problems.push(`${visit.path}: active link kept: ${l}`);
    };
    for (const visit of visits) await check(visit);
    // Settings show on every page (footer) and on /about: one round per packed description.
    for (let round = 0; round < settingsRounds; round++) {
      await api('PUT', '/api/settings', {
        title: pick(100, round),
        description: pick(500, round),
        authorName: pick(100, round + 1),
        authorBio: pick(2_000, round),
        socialLinks: { youtube: '', github: '', twitter: '', linkedin: '' },
      });
      for (const path of ['/', '/about']) await check({ path, admin: false });
      await check({ path: '/admin?tab=settings', admin: true });
    }
    await reader.context.close();
    await editor.context.close();
    expect([...reader.dialogs, ...editor.dialogs]).toEqual([]);
    expect(problems).toEqual([]);
    expect(visits.length).toBeGreaterThan(30);
  });
});
