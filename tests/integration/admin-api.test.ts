import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '../../src/blog/comment-moderation-messages.ts';
import { POST_MESSAGES } from '../../src/blog/post-messages.ts';
import { publishDuePosts } from '../../src/blog/scheduling.ts';
import { ADMIN_REQUIRED_MESSAGE } from '../../src/identity/policy.ts';
import { setStock } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  app = await startTestApp();
  admin = await signedInSession(app, { role: 'admin', firstName: 'Ada', lastName: 'Lovelace' });
});
afterAll(async () => {
  await app?.close();
});

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = admin.headers,
) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: type.includes('json') ? await res.json() : await res.text() };
}

const newPost = {
  title: 'Hello Admin World',
  content: '**Bold** start\n\n[youtube:dQw4w9WgXcQ]',
  excerpt: 'An excerpt',
  category: 'Technology',
  tags: [' react ', 'react', 'node', ''],
  youtubeVideoId: 'https://youtu.be/dQw4w9WgXcQ',
  status: 'draft',
};

describe('posts (admin API)', () => {
  it('creates, renames (keeping the old slug) and deletes a post', async () => {
    const created = await call('POST', '/api/posts', newPost);
    expect(created.status).toBe(201);
    expect(created.body.message).toBe(POST_MESSAGES.created);
    const post = created.body.post;
    expect(post).toMatchObject({
      slug: 'hello-admin-world',
      tags: ['react', 'node'],
      youtubeVideoId: 'dQw4w9WgXcQ',
    });
    const row = await app.services.db('posts').where({ id: post.id }).first();
    expect(row.content_html).toContain('<strong>Bold</strong>');
    expect(row.published_at).toBeNull();

    const updated = await call('PUT', `/api/posts?id=${post.id}`, {
      ...newPost,
      title: 'Renamed Post',
      status: 'published',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ message: POST_MESSAGES.updated, post: { slug: 'renamed-post' } });
    const history = await app.services.db('post_slug_history').where({ post_id: post.id });
    expect(history.map((h) => h.slug)).toEqual(['hello-admin-world']);
    expect((await app.services.db('posts').where({ id: post.id }).first()).published_at).not.toBeNull();

    // A new post may not take a slug that still redirects to another post.
    const clash = await call('POST', '/api/posts', newPost);
    expect(clash.body.post.slug).toBe('hello-admin-world-2');

    expect((await call('DELETE', `/api/posts?id=${post.id}`)).body).toEqual({
      message: POST_MESSAGES.deleted,
    });
    expect((await call('DELETE', `/api/posts?id=${post.id}`)).status).toBe(404);
  });

  it('refuses blank required fields with the specification message, and non-admins', async () => {
    const res = await call('POST', '/api/posts', { ...newPost, title: '   ' });
    expect(res).toEqual({ status: 400, body: { message: POST_MESSAGES.requiredFields } });
    expect((await call('POST', '/api/posts', newPost, { origin: app.url })).status).toBe(401);
    const user = await signedInSession(app);
    expect((await call('POST', '/api/posts', newPost, user.headers)).status).toBe(403);
    expect((await call('POST', '/api/posts', 'not json{')).status).toBe(400);
  });

  it('publishes a scheduled post when its time has passed', async () => {
    const res = await call('POST', '/api/posts', {
      ...newPost,
      title: 'Scheduled one',
      status: 'scheduled',
      publishAt: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
    });
    expect(res.body.post.status).toBe('scheduled');
    expect(await publishDuePosts(app.services.db)).toBe(0);
    await app.services
      .db('posts')
      .where({ id: res.body.post.id })
      .update({ publish_at: new Date(Date.now() - 1000) });
    expect(await publishDuePosts(app.services.db)).toBe(1);
    const row = await app.services.db('posts').where({ id: res.body.post.id }).first();
    expect(row.status).toBe('published');
    expect(row.published_at).not.toBeNull();
  });
});

describe('comments (admin API)', () => {
  it('lists, moderates and deletes comments; anonymous callers get the specification message', async () => {
    const [post] = await app.services
      .db('posts')
      .insert({
        title: 'C',
        slug: 'c-post',
        content: 'x',
        excerpt: 'x',
        category: 'Life',
        status: 'published',
      })
      .returning('id');
    const [a, b] = await app.services
      .db('comments')
      .insert([
        { post_id: post.id, author: 'Alice', email: 'alice@example.com', content: 'First!' },
        { post_id: post.id, author: 'Bob', email: 'bob@example.com', content: 'Second', approved: true },
      ])
      .returning('id');

    const pending = await call('GET', '/api/comments?action=pending');
    expect(pending.body.comments.map((c: { id: number }) => c.id)).toEqual([a.id]);
    const all = await call('GET', '/api/comments?action=all&status=all&search=bob');
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
    expect(all.body.comments[0]).toMatchObject({ author: 'Bob', post: { id: post.id, title: 'C' } });

    const approve = await call('PUT', `/api/comments?id=${a.id}&action=moderate`, { approved: true });
    expect(approve.body).toEqual({ message: MODERATION_MESSAGES.approved });
    const reject = await call('PUT', `/api/comments?id=${b.id}&action=moderate`, { approved: false });
    expect(reject.body).toEqual({ message: MODERATION_MESSAGES.rejected });
    expect((await call('DELETE', `/api/comments?id=${b.id}`)).body).toEqual({
      message: MODERATION_MESSAGES.deleted,
    });

    const anon = await call('GET', '/api/comments?action=all', undefined, {});
    expect(anon).toEqual({ status: 401, body: { message: ADMIN_REQUIRED_MESSAGE } });
  });
});

describe('dashboard, settings and newsletter (admin API)', () => {
  it('answers the dashboard in the specification shape, and the older admin-test shape', async () => {
    const { db } = app.services;
    const stocks = [0, 5, null];
    const rows = await db('products')
      .insert([
        { name: 'Mug', description: 'd', price: 1500, category: 'Merchandise' },
        { name: 'Book', description: 'd', price: 2999, category: 'Books', status: 'inactive' },
        { name: 'Course', description: 'd', price: 9900, category: 'Courses' },
      ])
      .returning('id');
    for (const [i, row] of rows.entries()) await setStock(db, row.id, stocks[i]);
    const res = await call('GET', '/api/admin');
    expect(res.status).toBe(200);
    expect(res.body.stats).toMatchObject({
      products: { total: 3, active: 2, inactive: 1 },
      orders: { total: 0, pending: 0 },
      revenue: { formatted: '$0.00' },
      users: { total: expect.any(Number) },
      comments: { pending: expect.any(Number) },
    });
    expect(Object.keys(res.body.stats.posts).sort()).toEqual(['drafts', 'published', 'total']);
    expect(res.body.recentActivity.lowStockProducts).toEqual([
      { id: expect.any(Number), name: 'Mug', price: 1500, stock: 0 },
    ]);
    for (const action of ['stats', 'analytics', 'recent-activity'])
      expect((await call('GET', `/api/admin?action=${action}`)).status).toBe(200);
    const older = await call('GET', '/api/admin-test');
    expect(Object.keys(older.body.stats).sort()).toEqual(['comments', 'posts', 'products']);
    expect((await call('GET', '/api/admin', undefined, {})).status).toBe(401);
  });

  it('saves blog settings with one schema and refuses a non-http social link', async () => {
    const settings = {
      title: 'New Title',
      description: 'Desc',
      authorName: 'Ada',
      authorBio: 'Bio',
      authorProfileImage: '',
      socialLinks: { youtube: '', github: 'https://github.com/ada', twitter: '', linkedin: '' },
      shopRequiresSignIn: false,
    };
    const ok = await call('PUT', '/api/settings', settings);
    expect(ok.status).toBe(200);
    expect(ok.body.settings).toMatchObject({
      title: 'New Title',
      socialLinks: { github: 'https://github.com/ada' },
    });
    const bad = await call('PUT', '/api/settings', {
      ...settings,
      socialLinks: { ...settings.socialLinks, twitter: 'javascript:alert(1)' },
    });
    expect(bad.status).toBe(400);
  });

  it('answers GET /api/settings in the shape PUT takes, so the answer can be put back unchanged', async () => {
    await call('PUT', '/api/settings', {
      title: 'Round Trip',
      description: 'Desc',
      authorName: 'Ada',
      authorBio: 'Bio',
      authorProfileImage: '',
      socialLinks: { github: 'https://github.com/ada', youtube: 'https://youtube.com/@ada' },
    });
    const before = await fetch(`${app.url}/api/settings`).then((r) => r.json());
    expect(before.settings.socialLinks).toEqual({
      github: 'https://github.com/ada',
      youtube: 'https://youtube.com/@ada',
    });
    const put = await call('PUT', '/api/settings', before.settings);
    expect(put.status).toBe(200);
    expect(await fetch(`${app.url}/api/settings`).then((r) => r.json())).toEqual(before);
  });

  it('exports newsletter subscribers as formula-safe CSV', async () => {
    await app.services.db('newsletter_subscribers').insert([
      { email: 'reader@example.com', token: 't1', status: 'confirmed' },
      { email: '=cmd@example.com', token: 't2' },
    ]);
    const res = await fetch(`${app.url}/api/newsletter?action=export`, { headers: admin.headers });
    expect(res.headers.get('content-type')).toContain('text/csv');
    const csv = await res.text();
    expect(csv.split('\r\n')[0]).toBe('email,status,subscribed_at,confirmed_at');
    expect(csv).toContain('reader@example.com,confirmed,');
    expect(csv).toContain(`"'=cmd@example.com",pending`);
    expect((await fetch(`${app.url}/api/newsletter?action=export`)).status).toBe(401);
  });
});

describe('admin tabs that fail to load', () => {
  it("show SPEC §8's message and a 'Try Again' link back to the same view", async () => {
    const page = async (query: string) => {
      const res = await fetch(`${app.url}/admin?${query}`, { headers: { cookie: admin.cookie } });
      return { status: res.status, html: await res.text() };
    };
    await app.services.db.raw('ALTER TABLE comments RENAME TO comments_away');
    try {
      const pending = await page('tab=comments');
      expect(pending.status).toBe(200);
      expect(pending.html).toContain(MODERATION_MESSAGES.loadPendingFailed);
      expect(pending.html).toContain('href="/admin?tab=comments">Try Again</a>');
      const all = await page('tab=comments&view=all&status=approved');
      expect(all.html).toContain(`<p>${MODERATION_MESSAGES.loadFailed}</p>`);
      expect(all.html).toContain('href="/admin?tab=comments&amp;view=all&amp;status=approved">Try Again</a>');
    } finally {
      await app.services.db.raw('ALTER TABLE comments_away RENAME TO comments');
    }
    const recovered = await page('tab=comments');
    expect(recovered.html).not.toContain('Try Again');
  });
});
