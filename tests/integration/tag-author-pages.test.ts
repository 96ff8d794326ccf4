import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { seedDemo } from '../support/blog.ts';

let app: TestApp;
let admin: { id: number; username: string };
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
  admin = await app.services.db('users').where({ role: 'admin' }).first('id', 'username');
});
afterAll(() => app?.close());

const get = (path: string) => fetch(`${app.url}${path}`, { redirect: 'manual' });
/** A page's HTML without React's text separators. */
const page = async (path: string) => (await get(path)).text().then((html) => html.replaceAll('<!-- -->', ''));
/** The post links of a listing's cards, in order. */
const cardSlugs = (html: string) =>
  [...html.matchAll(/<h3 class="post-card-title"><a href="\/post\/([^"]+)"/g)].map((m) => m[1]);

async function addPosts(n: number, fields: Record<string, unknown>) {
  const base = Date.now() - 86_400_000 * 400;
  await app.services.db('posts').insert(
    Array.from({ length: n }, (_, i) => ({
      title: `Listing post ${i}`,
      slug: `listing-post-${i}-${fields.category ?? 'x'}`,
      content: 'Body',
      content_html: '<p>Body</p>',
      excerpt: 'An excerpt',
      category: 'Life',
      tags: [],
      status: 'published',
      published_at: new Date(base + i * 60_000),
      author_id: admin.id,
      ...fields,
    })),
  );
}

it('lists the posts of a tag on /tag/:slug, whatever the spelling of the tag', async () => {
  const res = await get('/tag/design-systems');
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain('<h1>#design systems</h1>');
  const expected = await app.services
    .db('posts')
    .where({ status: 'published' })
    .whereRaw(`tags @> ARRAY['design systems']::text[]`)
    .orderBy('published_at', 'desc')
    .pluck('slug');
  expect(expected.length).toBeGreaterThan(0);
  expect(cardSlugs(html)).toEqual(expected);
  expect(html).toContain('href="/tag/design-systems/rss.xml"');

  await addPosts(1, { tags: ['Design Systems'], slug: 'capital-spelling', category: 'Design' });
  expect(cardSlugs(await page('/tag/design-systems'))).toEqual([...expected, 'capital-spelling']);
  expect((await get('/tag/no-such-tag')).status).toBe(404);
});

it("answers Ghost's trailing-slash tag links with 301 to the tag page", async () => {
  const res = await get('/tag/design-systems/?page=2');
  expect(res.status).toBe(301);
  expect(new URL(res.headers.get('location') ?? '', app.url).href).toBe(
    `${app.url}/tag/design-systems?page=2`,
  );
  const plain = await get('/tag/design-systems/');
  expect(plain.status).toBe(301);
  expect(new URL(plain.headers.get('location') ?? '', app.url).href).toBe(`${app.url}/tag/design-systems`);
});

it('pages a tag twelve posts at a time and sends a page past the end to the last page', async () => {
  await addPosts(13, { tags: ['paged'], category: 'Tutorial' });
  const first = await page('/tag/paged');
  expect(cardSlugs(first)).toHaveLength(12);
  expect(first).toContain('Page 1 of 2');
  expect(first).toMatch(/<a rel="next" href="\/tag\/paged\?page=2"/);
  const second = await page('/tag/paged?page=2');
  expect(cardSlugs(second)).toEqual(['listing-post-0-Tutorial']);
  expect(second).toMatch(/<a rel="prev" href="\/tag\/paged"/);
  const past = await get('/tag/paged?page=9');
  expect(past.status).toBe(302);
  expect(past.headers.get('location')).toBe('/tag/paged?page=2');
});

it("gives each tag its own RSS feed with only that tag's posts", async () => {
  const res = await get('/tag/performance/rss.xml');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
  const feed = await res.text();
  const tagged = await app.services
    .db('posts')
    .where({ status: 'published' })
    .whereRaw(`tags @> ARRAY['performance']::text[]`)
    .pluck('slug');
  const linked = [...feed.matchAll(/<link>[^<]*\/post\/([^<]+)<\/link>/g)].map((m) => m[1]);
  expect(linked.sort()).toEqual([...tagged].sort());
  expect(feed).toContain(`<atom:link href="${app.services.publicUrl}/tag/performance/rss.xml" rel="self"`);
  expect(feed).toMatch(/<channel><title>[^<]*: #performance<\/title>/);
  expect((await get('/tag/nothing-here/rss.xml')).status).toBe(404);
});

it('links every tag and category badge to its page', async () => {
  const post = await app.services
    .db('posts')
    .where({ slug: 'video-refactoring-a-legacy-checkout-live' })
    .first();
  const html = await page(`/post/${post.slug}`);
  for (const tag of post.tags as string[])
    expect(html).toContain(`<a class="badge badge-tag" href="/tag/${tag.replace(/ /g, '-')}">#${tag}</a>`);
  expect(html).not.toContain('<span class="badge badge-tag">');
  expect(html).toContain(`<a class="badge" href="/category/${post.category.toLowerCase()}">`);
  expect(await page('/blog')).toMatch(/<a class="badge" href="\/category\/[a-z]+">/);
});

it('lists a category on /category/:name, one URL per category', async () => {
  const html = await page('/category/technology');
  expect(html).toContain('<h1>Technology</h1>');
  const expected = await app.services
    .db('posts')
    .where({ status: 'published', category: 'Technology' })
    .orderBy([
      { column: 'published_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(12)
    .pluck('slug');
  expect(cardSlugs(html)).toEqual(expected);
  const moved = await get('/category/Technology?page=1');
  expect(moved.status).toBe(301);
  expect(moved.headers.get('location')).toBe('/category/technology?page=1');
  expect((await get('/category/gardening')).status).toBe(404);
});

it("shows an author's posts and the bio from the settings on /author/:username", async () => {
  await app.services
    .db('blog_settings')
    .where({ id: 1 })
    .update({ author_bio: 'Writes about quiet software.' });
  const res = await get(`/author/${admin.username.toUpperCase()}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  expect(html).toContain('Writes about quiet software.');
  const total = Number(
    (await app.services.db('posts').where({ status: 'published', author_id: admin.id }).count('* as n'))[0].n,
  );
  expect(html).toContain(`${total} posts by `);
  expect(cardSlugs(html)).toHaveLength(12);

  const [other] = await app.services
    .db('users')
    .insert({ email: 'quiet@example.com', username: 'quiet', role: 'user' })
    .returning('id');
  await addPosts(1, { author_id: other.id, slug: 'by-quiet', status: 'draft', published_at: null });
  expect((await get('/author/quiet')).status).toBe(404);
  await app.services
    .db('posts')
    .where({ slug: 'by-quiet' })
    .update({ status: 'published', published_at: new Date() });
  expect(cardSlugs(await page('/author/quiet'))).toEqual(['by-quiet']);
  expect((await get('/author/nobody')).status).toBe(404);
});

it('puts the tag, category and author pages in the sitemap', async () => {
  const map = await page('/sitemap.xml');
  const base = app.services.publicUrl;
  expect(map).toContain(`<loc>${base}/tag/design-systems</loc>`);
  expect(map.split(`<loc>${base}/tag/design-systems</loc>`)).toHaveLength(2);
  expect(map).toContain(`<loc>${base}/category/technology</loc>`);
  expect(map).toContain(`<loc>${base}/author/${admin.username}</loc>`);
  expect(map).not.toContain(`<loc>${base}/tag/</loc>`);
});
