import { analyticsReport, lastDays } from '../../src/analytics/report.ts';
import { approvedComments, issueFormToken } from '../../src/blog/comments.ts';
import { getPost, latestPosts, listPosts, postCategories, relatedPosts } from '../../src/blog/posts.ts';
import type { Db } from '../../src/db/knex.ts';
import { getBlogSettings } from '../../src/settings/settings.ts';
import { getPublicProduct, listFeaturedProducts, listProducts } from '../../src/shop/products.ts';

/** A table with at least this many rows must never be read by a Seq Scan on a hot path. */
export const LARGE_TABLE_ROWS = 5_000;

export type HotQuery = { name: string; run: (db: Db) => Promise<unknown> };

type Sample = { slug: string; postId: number; category: string; productId: number; rareWord: string };

/** What the data set offers to ask about: the post with most comments, a product, a rare word. */
export async function pickSample(db: Db): Promise<Sample> {
  const post = await db('comment_counts as c')
    .join('posts as p', 'p.id', 'c.post_id')
    .where('p.status', 'published')
    .orderBy('c.approved', 'desc')
    .first('p.id', 'p.slug', 'p.category');
  const product = await db('products').where({ status: 'active' }).orderBy('id').first('id');
  // A title word that only one post has: the number every generated title ends with.
  const rare = await db('posts').where({ status: 'published' }).orderBy('id', 'desc').first('title');
  if (!post || !product || !rare)
    throw new Error('The database has no published post with comments or no product');
  return {
    slug: post.slug,
    postId: post.id,
    category: post.category,
    productId: product.id,
    rareWord: String(rare.title).split(' ').pop() ?? '',
  };
}

/** The queries behind the pages a reader hits most: the service calls the loaders make. */
export function hotQueries(s: Sample): HotQuery[] {
  return [
    { name: 'settings (every page)', run: (db) => getBlogSettings(db) },
    { name: 'home: carousel', run: (db) => latestPosts(db, 5) },
    { name: 'home: latest posts + count', run: (db) => listPosts(db, { limit: 12 }) },
    { name: 'home: featured products', run: (db) => listFeaturedProducts(db, 6) },
    { name: 'blog page 50', run: (db) => listPosts(db, { page: 50, limit: 12 }) },
    {
      name: 'blog category page 3',
      run: (db) => listPosts(db, { category: s.category, page: 3, limit: 12 }),
    },
    { name: 'search, common words', run: (db) => listPosts(db, { search: 'postgres index', limit: 12 }) },
    { name: 'search, one match', run: (db) => listPosts(db, { search: s.rareWord, limit: 12 }) },
    { name: 'search, prefix', run: (db) => listPosts(db, { search: 'kube', limit: 12 }) },
    { name: 'post by slug', run: (db) => getPost(db, { slug: s.slug }) },
    { name: 'post by id', run: (db) => getPost(db, { id: s.postId }) },
    { name: 'related posts', run: (db) => relatedPosts(db, { id: s.postId, category: s.category }) },
    { name: 'comment form token', run: (db) => issueFormToken(db) },
    { name: 'comments, newest page', run: (db) => approvedComments(db, s.postId, { limit: 50 }) },
    {
      name: 'comments, an older page',
      run: async (db) => {
        const first = await approvedComments(db, s.postId, { limit: 50 });
        return approvedComments(db, s.postId, { limit: 50, before: first.nextBefore ?? undefined });
      },
    },
    { name: 'post categories', run: (db) => postCategories(db) },
    {
      name: 'shop page 3, category',
      run: (db) => listProducts(db, { page: 3, limit: 12, category: 'Books', status: 'active' }),
    },
    { name: 'shop page 1', run: (db) => listProducts(db, { page: 1, limit: 12, status: 'active' }) },
    { name: 'product', run: (db) => getPublicProduct(db, s.productId) },
    { name: 'analytics 12 months', run: (db) => analyticsReport(db, lastDays(365)) },
  ];
}

export type ExplainedStatement = {
  sql: string;
  plan: string;
  executionMs: number;
  /** Seq Scans on tables of LARGE_TABLE_ROWS or more rows. */
  largeSeqScans: string[];
};
export type ExplainedQuery = { name: string; statements: ExplainedStatement[] };

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

function seqScans(node: PlanNode, out: string[] = []): string[] {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) out.push(node['Relation Name']);
  for (const child of node.Plans ?? []) seqScans(child, out);
  return out;
}

/**
 * Runs each hot query, captures the SQL it sends, and runs that again under
 * EXPLAIN (ANALYZE, BUFFERS), reporting every Seq Scan on a large table.
 */
export async function explainHotQueries(db: Db, queries: HotQuery[]): Promise<ExplainedQuery[]> {
  const { rows: sizes } = await db.raw(
    `SELECT relname, reltuples FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`,
  );
  const large = new Set(
    (sizes as { relname: string; reltuples: number }[])
      .filter((r) => r.reltuples >= LARGE_TABLE_ROWS)
      .map((r) => r.relname),
  );
  const results: ExplainedQuery[] = [];
  for (const query of queries) {
    const captured: { sql: string; bindings: unknown[] }[] = [];
    const onQuery = (q: { sql: string; bindings?: unknown[] }) => {
      if (/^\s*(select|with)\b/i.test(q.sql)) captured.push({ sql: q.sql, bindings: q.bindings ?? [] });
    };
    db.on('query', onQuery);
    try {
      await query.run(db);
    } finally {
      db.off('query', onQuery);
    }
    const statements: ExplainedStatement[] = [];
    for (const { sql, bindings } of captured) {
      const connection = await db.client.acquireConnection();
      try {
        const json = await connection.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, bindings);
        const text = await connection.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, bindings);
        const [{ Plan, 'Execution Time': executionMs }] = json.rows[0]['QUERY PLAN'] as [
          { Plan: PlanNode; 'Execution Time': number },
        ];
        statements.push({
          sql,
          plan: (text.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n'),
          executionMs,
          largeSeqScans: seqScans(Plan).filter((table) => large.has(table)),
        });
      } finally {
        await db.client.releaseConnection(connection);
      }
    }
    results.push({ name: query.name, statements });
  }
  return results;
}
