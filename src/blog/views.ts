import type { Db } from '../db/knex.ts';

type View = { postId: number; viewer: string; day: string };

/** The job: counts each viewer once per post per day, in one statement per batch. */
export async function applyViews(db: Db, views: View[]): Promise<number> {
  if (!views.length) return 0;
  const result = await db.raw(
    `WITH fresh AS (
       INSERT INTO post_view_log (post_id, viewer, day)
       SELECT v.post_id, v.viewer, v.day::date
       FROM jsonb_to_recordset(?::jsonb) AS v(post_id int, viewer text, day text)
       WHERE EXISTS (SELECT 1 FROM posts p WHERE p.id = v.post_id)
       ON CONFLICT DO NOTHING
       RETURNING post_id
     ), counted AS (
       SELECT post_id, count(*)::int AS n FROM fresh GROUP BY post_id
     )
     UPDATE posts SET view_count = view_count + counted.n
     FROM counted WHERE posts.id = counted.post_id
     RETURNING posts.id`,
    [JSON.stringify(views.map((v) => ({ post_id: v.postId, viewer: v.viewer, day: v.day })))],
  );
  return result.rowCount ?? 0;
}

export async function sweepViewLog(db: Db, keepDays = 2): Promise<void> {
  await db('post_view_log')
    .where('day', '<', db.raw(`current_date - ?::int`, [keepDays]))
    .delete();
}
