import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  explainHotQueries,
  hotQueries,
  LARGE_TABLE_ROWS,
  pickSample,
} from '../../scripts/bench/hot-queries.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

const POSTS = 20_000;
const COMMENTS = 100_000;
const PRODUCTS = 6_000;

let t: TestDatabase;

/**
 * A moderate data set, generated in SQL: big enough that the planner prefers the indexes where it
 * would on 100,000 posts, small enough for CI. `npm run bench:explain` runs the same checks on the
 * full benchmark data.
 */
beforeAll(async () => {
  t = await createTestDatabase();
  const { db } = t;
  await db.raw(
    `INSERT INTO posts (title, slug, content, content_html, excerpt, category, tags, status, published_at,
       view_count, created_at, updated_at)
     SELECT initcap(w[1 + g % 12]) || ' and ' || w[1 + (g * 7) % 12] || ' ' || g,
            'post-' || g,
            'Notes on ' || w[1 + g % 12] || ', ' || w[1 + (g * 5) % 12] || ' and ' || w[1 + (g * 11) % 12] || '.',
            '<p>Notes.</p>',
            'About ' || w[1 + (g * 3) % 12],
            (ARRAY['Technology','Design','Tutorial','Life','Podcasts'])[1 + g % 5],
            ARRAY[w[1 + g % 12]],
            CASE WHEN g % 50 = 0 THEN 'draft' ELSE 'published' END,
            CASE WHEN g % 50 = 0 THEN NULL ELSE now() - make_interval(mins => g) END,
            g % 997, now() - make_interval(mins => g), now() - make_interval(mins => g)
     FROM generate_series(1, ?) g,
          (SELECT ARRAY['postgres','index','garden','river','kubernetes','design','habit','mountain',
                        'session','token','coffee','travel'] AS w) words`,
    [POSTS],
  );
  await db.raw(
    `INSERT INTO comments (post_id, author, email, content, approved, created_at)
     SELECT CASE WHEN g <= 2000 THEN 1 ELSE 2 + floor(power(random(), 3) * (? - 2))::int END,
            'Reader ' || g, 'r' || g || '@example.com', 'Comment ' || g, g <= 2000 OR g % 10 <> 0,
            now() - make_interval(secs => g)
     FROM generate_series(1, ?) g`,
    [POSTS, COMMENTS],
  );
  await db.raw(
    `INSERT INTO products (name, description, price, category, featured, status, created_at, updated_at)
     SELECT 'Product ' || g, 'A product', 500 + g, (ARRAY['Courses','Books','Digital','Merchandise','Physical'])[1 + g % 5],
            g % 40 = 0,
            CASE WHEN g % 25 = 0 THEN 'inactive' ELSE 'active' END,
            now() - make_interval(mins => g), now() - make_interval(mins => g)
     FROM generate_series(1, ?) g`,
    [PRODUCTS],
  );
  await db.raw(
    'INSERT INTO stock_levels (product_id, stock) SELECT id, CASE WHEN id % 4 = 0 THEN NULL ELSE 100 END FROM products',
  );
  await db.raw('VACUUM ANALYZE');
}, 300_000);

afterAll(async () => {
  await t?.drop();
});

describe('hot query plans', () => {
  it('read no large table by Seq Scan', async () => {
    const explained = await explainHotQueries(t.db, hotQueries(await pickSample(t.db)));
    const statements = explained.flatMap((q) => q.statements.map((s) => ({ name: q.name, ...s })));
    expect(statements.length).toBeGreaterThan(20);
    const offenders = statements
      .filter((s) => s.largeSeqScans.length > 0)
      .map(
        (s) =>
          `${s.name}: Seq Scan on ${s.largeSeqScans.join(', ')} (tables of ${LARGE_TABLE_ROWS}+ rows)\n${s.plan}`,
      );
    expect(offenders).toEqual([]);
  });

  it('find a post’s comments, a search’s newest matches and the listing pages through their indexes', async () => {
    const explained = await explainHotQueries(t.db, hotQueries(await pickSample(t.db)));
    const plans = (name: string) =>
      explained
        .find((q) => q.name === name)
        ?.statements.map((s) => s.plan)
        .join('\n') ?? '';
    // The keyset index, or (for a post with a large share of all comments) the primary key walked
    // backwards: either way an index read in id order that stops after a page.
    expect(plans('comments, newest page')).toMatch(/Index Scan.* on comments /);
    expect(plans('comments, an older page')).toMatch(/Index Scan.* on comments /);
    expect(plans('blog page 50')).toContain('posts_published_idx');
    expect(plans('blog category page 3')).toContain('posts_category_published_idx');
    expect(plans('search, common words')).toContain('posts_published_idx');
    expect(plans('search, one match')).toContain('posts_search_idx');
    expect(plans('shop page 3, category')).toMatch(/Index Scan using products_\w+ on products/);
    // Counts come from the counts tables, never from counting posts or comments.
    expect(plans('home: latest posts + count')).toContain('post_counts');
    expect(plans('comments, newest page')).toContain('comment_counts');
  });
});
