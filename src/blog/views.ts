import { createHash } from 'node:crypto';
import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';

type View = { postId: number; viewer: string; day: string };

/** A visitor without a session, as a hash of address, browser and day: no raw IP is stored. */
export function anonymousViewer(ip: string, userAgent: string, now = new Date()): string {
  return `anon:${createHash('sha256')
    .update(`${ip}|${userAgent}|${now.toISOString().slice(0, 10)}`)
    .digest('base64url')
    .slice(0, 32)}`;
}

/**
 * Collects post views in memory and sends them to the queue in one job per interval,
 * so a page view never costs an UPDATE or a job of its own.
 */
export class ViewRecorder {
  private pending = new Map<string, View>();
  private timer: NodeJS.Timeout | undefined;
  private readonly queues: Queues;
  private readonly intervalMs: number;

  constructor(queues: Queues, intervalMs = 2_000) {
    this.queues = queues;
    this.intervalMs = intervalMs;
  }

  record(postId: number, viewer: string, now = new Date()): void {
    const day = now.toISOString().slice(0, 10);
    this.keep({ postId, viewer, day });
    this.schedule();
  }

  /** Sends the collected views; when the queue cannot take them they are kept for the next try. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.size) return;
    const views = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.queues.enqueue('views.record', { views }, { attempts: 3 });
    } catch (error) {
      for (const view of views) this.keep(view);
      this.schedule();
      throw error;
    }
  }

  private keep(view: View): void {
    this.pending.set(`${view.postId}|${view.viewer}|${view.day}`, view);
  }

  private schedule(): void {
    // A failed timed flush has put its views back and scheduled the next one: nothing to report.
    this.timer ??= setTimeout(() => this.flush().catch(() => {}), this.intervalMs);
    this.timer.unref();
  }
}

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
