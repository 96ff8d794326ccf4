import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedComments } from '../../src/blog/comments.ts';
import { commentCounts } from '../../src/blog/moderation.ts';
import { listPosts, MATCH_COUNT_CAP } from '../../src/blog/posts.ts';
import { postStats } from '../../src/blog/stats.ts';
import { listProducts } from '../../src/shop/products.ts';
import { startTestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

/** The counts tables must always equal a real count. */
async function expectCountsExact() {
  const { db } = t;
  const posts = await db.raw(`
    SELECT status, category, count(*)::int AS n FROM posts GROUP BY 1, 2
    EXCEPT SELECT status, category, n FROM post_counts WHERE n > 0`);
  expect(posts.rows).toEqual([]);
  const stale = await db.raw(`
    SELECT c.status, c.category FROM post_counts c
    WHERE c.n <> (SELECT count(*) FROM posts p WHERE p.status = c.status AND p.category = c.category)`);
  expect(stale.rows).toEqual([]);
  const products = await db.raw(`
    SELECT c.status, c.category FROM product_counts c
    WHERE c.n <> (SELECT count(*) FROM products p WHERE p.status = c.status AND p.category = c.category)
    UNION ALL
    SELECT status, category FROM products GROUP BY 1, 2
    EXCEPT SELECT status, category FROM product_counts`);
  expect(products.rows).toEqual([]);
  const comments = await db.raw(`
    SELECT p.id FROM posts p LEFT JOIN comment_counts c ON c.post_id = p.id
    WHERE coalesce(c.approved, 0) <> (SELECT count(*) FROM comments WHERE post_id = p.id AND approved)
       OR coalesce(c.pending, 0) <> (SELECT count(*) FROM comments WHERE post_id = p.id AND NOT approved)`);
  expect(comments.rows).toEqual([]);
}

function post(i: number, extra: Record<string, unknown> = {}) {
  return {
    title: `Counted post ${i}`,
    slug: `counted-post-${i}`,
    content: `Body ${i} about gardens`,
    excerpt: 'x',
    category: ['Technology', 'Design', 'Life'][i % 3],
    status: i % 4 === 0 ? 'draft' : 'published',
    published_at: i % 4 === 0 ? null : new Date(Date.now() - i * 60_000),
    ...extra,
  };
}

describe('counts kept by triggers', () => {
  it('follow inserts (one row and many), status and category changes, deletes and truncation', async () => {
    const { db } = t;
    const ids: number[] = (
      await db('posts').insert(
        Array.from({ length: 40 }, (_, i) => post(i + 1)),
        'id',
      )
    ).map((r: { id: number }) => r.id);
    await db('posts').insert(post(100));
    await expectCountsExact();

    await db('posts').whereIn('id', ids.slice(0, 5)).update({ status: 'draft' });
    await db('posts').whereIn('id', ids.slice(5, 8)).update({ category: 'Tutorial' });
    await db('posts').whereIn('id', ids.slice(8, 12)).increment('view_count', 3);
    await db('posts').whereIn('id', ids.slice(12, 14)).delete();
    await expectCountsExact();

    const published = (await db('posts').where({ status: 'published' }).count({ n: '*' }).first())?.n;
    const listed = await listPosts(db, { limit: 5 });
    expect(listed.pagination.total).toBe(Number(published));
    const design = await listPosts(db, { category: 'Design' });
    expect(design.pagination.total).toBe(
      Number(
        (await db('posts').where({ status: 'published', category: 'Design' }).count({ n: '*' }).first())?.n,
      ),
    );
    expect((await postStats(db)).total).toBe(39);

    // A rolled-back write leaves the counts as they were.
    await db
      .transaction(async (trx) => {
        await trx('posts').insert(post(200));
        throw new Error('roll back');
      })
      .catch(() => {});
    await expectCountsExact();
  });

  it('follow comments through moderation, moves and the deletion of their post', async () => {
    const { db } = t;
    const [a, b] = await db('posts').insert([post(300), post(301)], 'id');
    const rows = Array.from({ length: 30 }, (_, i) => ({
      post_id: i < 20 ? a.id : b.id,
      author: `R${i}`,
      email: `r${i}@example.com`,
      content: `Comment ${i}`,
      approved: i % 3 !== 0,
    }));
    const commentIds: number[] = (await db('comments').insert(rows, 'id')).map((r: { id: number }) => r.id);
    await expectCountsExact();

    await db('comments').whereIn('id', commentIds.slice(0, 6)).update({ approved: true });
    await db('comments').whereIn('id', commentIds.slice(6, 9)).update({ approved: false });
    await db('comments').whereIn('id', commentIds.slice(9, 11)).update({ post_id: b.id });
    await db('comments').whereIn('id', commentIds.slice(11, 13)).delete();
    await db('comments').whereIn('id', commentIds.slice(13, 15)).increment('likes', 1);
    await expectCountsExact();

    const counts = await commentCounts(db);
    const real = await db('comments').first(
      db.raw('count(*)::int AS total'),
      db.raw('count(*) FILTER (WHERE approved)::int AS approved'),
    );
    expect(counts.total).toBe(real.total);
    expect(counts.approved).toBe(real.approved);

    await db('posts').where({ id: b.id }).delete();
    await expectCountsExact();
    expect(await db('comment_counts').where({ post_id: b.id }).first()).toBeUndefined();

    await db.raw('TRUNCATE comments CASCADE');
    await expectCountsExact();
    expect(await db('comment_counts').sum({ n: 'approved' }).first()).toEqual({ n: null });
  });

  it('follow products, and the shop counts from them', async () => {
    const { db } = t;
    const categories = ['Books', 'Courses', 'Digital'];
    const ids: number[] = (
      await db('products').insert(
        Array.from({ length: 30 }, (_, i) => ({
          name: `P${i}`,
          description: 'd',
          price: 100,
          category: categories[i % 3],
          status: i % 5 === 0 ? 'inactive' : 'active',
        })),
        'id',
      )
    ).map((r: { id: number }) => r.id);
    await db('products').whereIn('id', ids.slice(0, 4)).update({ status: 'inactive' });
    await db('products').whereIn('id', ids.slice(4, 6)).update({ category: 'Books' });
    await db('products').whereIn('id', ids.slice(6, 8)).delete();
    await expectCountsExact();
    const books = await listProducts(db, { category: 'Books' });
    expect(books.pagination.total).toBe(
      Number(
        (await db('products').where({ status: 'active', category: 'Books' }).count({ n: '*' }).first())?.n,
      ),
    );
    const all = await listProducts(db, { status: 'all' });
    expect(all.pagination.total).toBe(28);
  });
});

describe('bounded reads', () => {
  it('pages a post’s approved comments by keyset, newest first, with the total from the counts table', async () => {
    const { db } = t;
    const [p] = await db('posts').insert(post(400), 'id');
    await db('comments').insert(
      Array.from({ length: 125 }, (_, i) => ({
        post_id: p.id,
        author: `R${i}`,
        email: `r${i}@example.com`,
        content: `Comment ${i}`,
        approved: i % 5 !== 0,
      })),
    );
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await approvedComments(db, p.id, { limit: 40, before });
      expect(page.total).toBe(100);
      seen.push(...page.comments.map((c) => c.id));
      if (page.nextBefore === null) break;
      before = page.nextBefore;
    }
    const expected = (
      await db('comments').where({ post_id: p.id, approved: true }).orderBy('id', 'desc').select('id')
    ).map((r) => r.id);
    expect(seen).toEqual(expected);
  });

  it('counts search matches only up to the cap, and lists them newest first', async () => {
    const { db } = t;
    await db.raw(
      `INSERT INTO posts (title, slug, content, excerpt, category, status, published_at)
       SELECT 'Orchard ' || g, 'orchard-' || g, 'apples in the orchard', 'x', 'Life', 'published',
              now() - make_interval(mins => g)
       FROM generate_series(1, ?) g`,
      [MATCH_COUNT_CAP + 520],
    );
    const first = await listPosts(db, { search: 'orchard', limit: 12 });
    expect(first.pagination.total).toBe(MATCH_COUNT_CAP);
    expect(first.posts.map((p) => p.slug)).toEqual(Array.from({ length: 12 }, (_, i) => `orchard-${i + 1}`));
    const rare = await listPosts(db, { search: 'orchard 1017' });
    expect(rare.posts.map((p) => p.slug)).toEqual(['orchard-1017']);
    expect(rare.pagination.total).toBe(1);
    const beyond = await listPosts(db, { search: 'orchard', page: MATCH_COUNT_CAP / 10 + 1, limit: 10 });
    expect(beyond.posts).toEqual([]);
  });
});

describe('the post page', () => {
  it('shows the newest 50 comments and links to older pages, all without JavaScript', async () => {
    const app = await startTestApp();
    try {
      const { db } = app.services;
      const [p] = await db('posts').insert(post(501, { slug: 'many-comments' }), 'id');
      await db('comments').insert(
        Array.from({ length: 60 }, (_, i) => ({
          post_id: p.id,
          author: `Reader ${i}`,
          email: `r${i}@example.com`,
          content: `Comment number ${i}`,
          approved: true,
        })),
      );
      // A crawler's user agent gets the whole page at once, as a browser without scripts would.
      const get = (path: string) =>
        fetch(`${app.url}${path}`, { headers: { 'user-agent': 'curl/8' } }).then((r) => r.text());
      const first = await get('/post/many-comments');
      expect(first).toContain('Comments (<!-- -->60<!-- -->)');
      expect(first.match(/class="comment"/g)).toHaveLength(50);
      expect(first).toContain('Comment number 59');
      expect(first).not.toContain('Comment number 9<');
      const older = /href="\/post\/many-comments\?comments=(\d+)#comments-heading"[^>]*>Older comments/.exec(
        first,
      );
      expect(older).not.toBeNull();
      const second = await get(`/post/many-comments?comments=${older?.[1]}`);
      expect(second.match(/class="comment"/g)).toHaveLength(10);
      expect(second).toContain('Comment number 0<');
      expect(second).toContain('Newest comments');
      expect(second).not.toContain('Older comments');
    } finally {
      await app.close();
    }
  });
});
