import type { Db } from '../db/knex.ts';

export type PostStats = { total: number; published: number; drafts: number; scheduled: number };

export async function postStats(db: Db): Promise<PostStats> {
  const { rows } = await db.raw(`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE status = 'published')::int AS published,
           count(*) FILTER (WHERE status = 'draft')::int AS drafts,
           count(*) FILTER (WHERE status = 'scheduled')::int AS scheduled
    FROM posts`);
  return rows[0];
}

export async function pendingCommentCount(db: Db): Promise<number> {
  const { rows } = await db.raw('SELECT count(*)::int AS n FROM comments WHERE NOT approved');
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
