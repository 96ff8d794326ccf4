import type { Db } from '../db/knex.ts';

/**
 * Publishes one scheduled post if it is still scheduled for exactly that time (a rescheduled
 * post's earlier job finds nothing to do). Returns whether it published.
 */
export async function publishScheduledPost(
  db: Db,
  job: { postId: number; publishAt: string },
): Promise<boolean> {
  const updated = await db('posts')
    .where({ id: job.postId, status: 'scheduled' })
    .where('publish_at', new Date(job.publishAt))
    .where('publish_at', '<=', db.fn.now())
    .update({
      status: 'published',
      published_at: db.raw('coalesce(published_at, publish_at)'),
      updated_at: db.fn.now(),
      // An editor still open on the scheduled post must not save it back to 'scheduled' unawares.
      version: db.raw('version + 1'),
    });
  return updated > 0;
}

/** Publishes every scheduled post whose time has come: the catch-up after downtime. */
export async function publishDuePosts(db: Db): Promise<number> {
  return db('posts')
    .where({ status: 'scheduled' })
    .where('publish_at', '<=', db.fn.now())
    .update({
      status: 'published',
      published_at: db.raw('coalesce(published_at, publish_at)'),
      updated_at: db.fn.now(),
      // An editor still open on the scheduled post must not save it back to 'scheduled' unawares.
      version: db.raw('version + 1'),
    });
}
