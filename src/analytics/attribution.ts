import type { Db } from '../db/knex.ts';
import { ANALYTICS_ON_SQL } from '../settings/settings.ts';

/** How long the last post read in a session is credited with an order. */
const ATTRIBUTION_MS = 24 * 60 * 60 * 1000;

/**
 * Remembers in the session (not a cookie of its own) the post its visitor last read. These writes
 * are analytics: with the setting off they write nothing.
 */
export async function rememberPostRead(db: Db, sessionId: string, postId: number, at: Date): Promise<void> {
  await db('sessions')
    .where({ sid: sessionId })
    .whereRaw(ANALYTICS_ON_SQL)
    .update({
      sess: db.raw(
        `sess || jsonb_build_object('lastPost', jsonb_build_object('id', ?::int, 'at', ?::text))`,
        [postId, at.toISOString()],
      ),
    });
}

/** A post page's slug, as the product page's add-to-cart form says its reader came from. */
const FROM_POST_SLUG = /^[\w-]{1,200}$/;

/**
 * Remembers the post a reader came from when their session begins at an add-to-cart: reading
 * creates no session (stored pages set no cookie), so that post could not be remembered earlier.
 */
export async function rememberPostBySlug(
  db: Db,
  sessionId: string,
  slug: string,
  at = new Date(),
): Promise<void> {
  if (!FROM_POST_SLUG.test(slug)) return;
  const post = await db('posts').where({ slug, status: 'published' }).first('id');
  if (post) await rememberPostRead(db, sessionId, post.id, at);
}

/** The post a session read last, if within 24 hours (null without a session or such a read). */
export async function lastPostRead(
  db: Db,
  sessionId: string | null,
  now = new Date(),
): Promise<number | null> {
  if (!sessionId) return null;
  const row = await db('sessions').where({ sid: sessionId }).first(db.raw(`sess->'lastPost' AS "lastPost"`));
  const last = row?.lastPost as { id?: unknown; at?: unknown } | null | undefined;
  const at = typeof last?.at === 'string' ? Date.parse(last.at) : Number.NaN;
  return typeof last?.id === 'number' && now.getTime() - at <= ATTRIBUTION_MS ? last.id : null;
}

/** Credits an order to the session's last post read within 24 hours, if any. */
export async function recordOrderSource(
  db: Db,
  orderId: number,
  sessionId: string | null,
  now = new Date(),
): Promise<void> {
  const postId = await lastPostRead(db, sessionId, now);
  if (postId === null) return;
  await db.raw(
    `INSERT INTO order_sources (order_id, post_id)
     SELECT ?, id FROM posts WHERE id = ? AND ${ANALYTICS_ON_SQL} ON CONFLICT (order_id) DO NOTHING`,
    [orderId, postId],
  );
}
