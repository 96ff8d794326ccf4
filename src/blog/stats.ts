import type { Db } from '../db/knex.ts';

export type PostStats = { total: number; published: number; drafts: number; scheduled: number };

/** From the counts table the triggers keep: no scan of posts or comments. */
export async function postStats(db: Db): Promise<PostStats> {
  const { rows } = await db.raw(`
    SELECT coalesce(sum(n), 0)::int AS total,
           coalesce(sum(n) FILTER (WHERE status = 'published'), 0)::int AS published,
           coalesce(sum(n) FILTER (WHERE status = 'draft'), 0)::int AS drafts,
           coalesce(sum(n) FILTER (WHERE status = 'scheduled'), 0)::int AS scheduled
    FROM post_counts`);
  return rows[0];
}

export async function pendingCommentCount(db: Db): Promise<number> {
  const { rows } = await db.raw('SELECT coalesce(sum(pending), 0)::int AS n FROM comment_counts');
  return rows[0].n;
}

export async function userCount(db: Db): Promise<number> {
  const { rows } = await db.raw('SELECT count(*)::int AS n FROM users');
  return rows[0].n;
}

export async function popularPosts(
  db: Db,
  limit = 5,
): Promise<{ id: number; title: string; viewCount: number }[]> {
  const { rows } = await db.raw(
    `SELECT id, title, view_count AS "viewCount" FROM posts
     WHERE status = 'published' ORDER BY view_count DESC, id DESC LIMIT ?`,
    [limit],
  );
  return rows;
}

/** Views per category of published posts: the 'analytics' view of the dashboard API. */
export async function viewsByCategory(db: Db): Promise<{ category: string; posts: number; views: number }[]> {
  const { rows } = await db.raw(
    `SELECT category, count(*)::int AS posts, coalesce(sum(view_count), 0)::int AS views
     FROM posts WHERE status = 'published' GROUP BY category ORDER BY views DESC, category`,
  );
  return rows;
}
