import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoContent } from '../../src/demo/seed.ts';
import { ensureAdmin } from '../../src/identity/admin.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';

/**
 * SQL metacharacters: quotes, comment and statement ends, LIKE wildcards, backslashes,
 * placeholders and dollar quoting (no NUL: PostgreSQL text cannot hold one, and it is refused).
 * No angle brackets, so a page's text can be compared after stripping its markup.
 */
const META = `O'Brien "q" ;-- 100% _x_ back\\slash $1 $$y$$ ') OR ('1'='1 /* */`;
const META_EMAIL = "o'brien_x+1@example.com";

let app: TestApp;
let tables: string[];
let admin: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  await ensureAdmin(app.services.db, undefined);
  await seedDemoContent(app.services.db);
  admin = (await signedInSession(app, { role: 'admin' })).headers;
  tables = await watchedTables(app.services.db);
});
afterAll(() => app?.close());

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      origin: app.url,
      ...headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Runs a write and returns the tables it changed. */
async function changes(write: () => Promise<void>): Promise<string[]> {
  const before = await fingerprint(app.services.db, tables);
  await write();
  return changedTables(before, await fingerprint(app.services.db, tables));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
/** The visible text of a page: scripts (loader data) and tags removed, entities decoded. */
async function pageText(path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${app.url}${path}`, { headers });
  expect(res.status, path).toBe(200);
  return (await res.text())
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
      if (e[0] !== '#') return ENTITIES[e] ?? m;
      return String.fromCodePoint(e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
    });
}

/** The value attributes of a page's inputs (search boxes echo the query), decoded. */
async function inputValues(path: string): Promise<string[]> {
  const html = await (await fetch(`${app.url}${path}`)).text();
  return [...html.matchAll(/<input[^>]*\svalue="([^"]*)"/g)].map((m) =>
    (m[1] ?? '').replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, e: string) => {
      if (e[0] !== '#') return ENTITIES[e] ?? all;
      return String.fromCodePoint(e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1)));
    }),
  );
}

const subsetOf = (allowed: string[]) => (changed: string[]) => changed.every((t) => allowed.includes(t));

describe('SQL metacharacters are text: stored and shown as typed, and nothing else changes', () => {
  let post: { id: number; slug: string };
  let productId: number;

  it('in a post title, excerpt, tags and body', async () => {
    const changed = await changes(async () => {
      const res = await api(
        'POST',
        '/api/posts',
        {
          title: `Post ${META}`,
          excerpt: META,
          content: `Intro\n\n\`\`\`\n${META}\n\`\`\`\n`,
          category: 'Technology',
          tags: [META.slice(0, 50)],
          status: 'published',
        },
        admin,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      post = res.body.post;
    });
    expect(changed, changed.join()).toSatisfy(
      subsetOf(['posts', 'post_counts', 'post_slug_history', 'post_revisions', 'outbox']),
    );
    expect(changed).toContain('posts');
    const row = await app.services.db('posts').where({ id: post.id }).first();
    expect([row.title, row.excerpt, row.tags]).toEqual([`Post ${META}`, META, [META.slice(0, 50)]]);
    expect(row.content).toContain(META);
    const text = await pageText(`/post/${post.slug}`);
    for (const expected of [`Post ${META}`, META, META.slice(0, 50)]) expect(text).toContain(expected);
  });

  it('in a comment’s name and body', async () => {
    let id = 0;
    const changed = await changes(async () => {
      const res = await api('POST', '/api/comments', {
        postId: post.id,
        author: META,
        email: META_EMAIL,
        content: `${META} (comment)`,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      id = res.body.comment.id;
    });
    // The approved/pending counts move with the comment (kept by a trigger).
    expect(changed).toEqual(['comment_counts', 'comments']);
    const row = await app.services.db('comments').where({ id }).first();
    expect([row.author, row.email, row.content]).toEqual([META, META_EMAIL, `${META} (comment)`]);
    expect(
      (await api('PUT', `/api/comments?id=${id}&action=moderate`, { approved: true }, admin)).status,
    ).toBe(200);
    const text = await pageText(`/post/${post.slug}`);
    expect(text).toContain(`${META} (comment)`);
    expect(text).not.toContain(META_EMAIL);
    expect(await pageText(`/admin?tab=comments&view=all&q=${encodeURIComponent(META)}`, admin)).toContain(
      `${META} (comment)`,
    );
  });

  it('in a product’s name and description', async () => {
    const changed = await changes(async () => {
      const res = await api(
        'POST',
        '/api/products',
        { name: `Product ${META}`, description: META, category: 'Books', price: 1234, stock: 5 },
        admin,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      productId = res.body.id;
    });
    expect(changed).toEqual(['product_counts', 'products', 'stock_levels']);
    const row = await app.services.db('products').where({ id: productId }).first();
    expect([row.name, row.description]).toEqual([`Product ${META}`, META]);
    const text = await pageText(`/product/${productId}`);
    expect(text).toContain(`Product ${META}`);
    expect(text).toContain(META);
  });

  it('in the newsletter address and the sign-up fields', async () => {
    expect(
      await changes(async () => {
        expect((await api('POST', '/api/newsletter', { email: META_EMAIL })).status).toBe(200);
      }),
    ).toSatisfy(subsetOf(['newsletter_subscribers', 'outbox']));
    expect(await app.services.db('newsletter_subscribers').where({ email: META_EMAIL }).first()).toBeTruthy();

    const password = `Aa1${META}`;
    const changed = await changes(async () => {
      const res = await api('POST', '/api/users', { username: 'o_brien_1', email: META_EMAIL, password });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    });
    expect(changed).toSatisfy(subsetOf(['users', 'auth_codes', 'outbox']));
    const user = await app.services.db('users').where({ username: 'o_brien_1' }).first('email');
    expect(user.email).toBe(META_EMAIL);
    // A username outside the allowed characters is refused, and nothing is stored.
    expect(
      await changes(async () => {
        const res = await api('POST', '/api/users', { username: META, email: 'x@example.com', password });
        expect(res.status).toBe(400);
      }),
    ).toEqual([]);
  });

  it('in the checkout fields, shown to the admin as typed', async () => {
    const shopper = (await signedInSession(app)).headers;
    expect((await api('POST', '/api/cart?action=add', { productId, quantity: 1 }, shopper)).status).toBe(201);
    const fields = {
      customerName: `Ada ${META}`,
      customerEmail: META_EMAIL,
      address: `1 ${META}`,
      city: META,
      zipCode: "'%_$1;--",
      // The country is a code from the list; Hong Kong has no postal codes, so the field stays free text.
      country: 'HK',
    };
    let orderId = 0;
    const changed = await changes(async () => {
      const res = await api('POST', '/api/orders', fields, shopper);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      orderId = res.body.id;
    });
    expect(changed).toSatisfy(
      subsetOf(['orders', 'order_items', 'order_events', 'outbox', 'stock_levels', 'carts', 'cart_items']),
    );
    const row = await app.services.db('orders').where({ id: orderId }).first();
    expect([row.email, row.address, row.city, row.postal_code, row.country]).toEqual([
      META_EMAIL,
      `1 ${META}`,
      META,
      "'%_$1;--",
      'HK',
    ]);
    expect(`${row.first_name} ${row.last_name}`).toBe(`Ada ${META}`);
    const text = await pageText(`/admin/orders/${orderId}`, admin);
    for (const value of [META_EMAIL, `1 ${META}`, META, "'%_$1;--"]) expect(text).toContain(value);
  });

  it('in search and category parameters: matched literally, echoed as typed, and nothing changes', async () => {
    const before = await fingerprint(app.services.db, tables);
    // % and _ are not wildcards: only the product that has them is found, not every product.
    for (const search of ['%', '_', META]) {
      const res = await api('GET', `/api/products?search=${encodeURIComponent(search)}`);
      expect(res.status).toBe(200);
      expect(
        res.body.products.map((p: { id: number }) => p.id),
        search,
      ).toEqual([productId]);
    }
    for (const path of [
      `/api/posts?search=${encodeURIComponent(META)}`,
      `/api/posts?category=${encodeURIComponent(META.slice(0, 50))}`,
      `/api/comments?action=all&search=${encodeURIComponent(META)}`,
    ]) {
      const res = await api('GET', path, undefined, admin);
      expect(res.status, path).toBe(200);
    }
    // Product categories are a closed list: anything else is refused by name, not queried.
    const category = await api('GET', `/api/products?category=${encodeURIComponent(META)}`);
    expect(category.status).toBe(400);
    expect(category.body.message).toMatch(/category/i);
    const comments = await api(
      'GET',
      `/api/comments?action=all&search=${encodeURIComponent('%')}`,
      undefined,
      admin,
    );
    expect(comments.body.comments.every((c: { content: string }) => c.content.includes('%'))).toBe(true);
    for (const path of [
      `/?q=${encodeURIComponent(META)}`,
      `/blog?q=${encodeURIComponent(META)}`,
      `/shop?search=${encodeURIComponent(META)}`,
    ])
      expect(await inputValues(path), path).toContain(META);
    for (const path of [
      `/?category=${encodeURIComponent(META)}`,
      `/shop?category=${encodeURIComponent(META)}`,
    ])
      expect((await fetch(`${app.url}${path}`)).status, path).toBe(200);
    expect(changedTables(before, await fingerprint(app.services.db, tables))).toEqual([]);
  });
});
