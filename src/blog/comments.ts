import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { CommentInput } from './comment-schema.ts';

/** A comment as the public sees it: never the email. */
export type PublicComment = {
  id: number;
  postId: number;
  author: string;
  content: string;
  likes: number;
  createdAt: string;
};

export type CommentPage = {
  comments: PublicComment[];
  /** Every approved comment of the post, from the counts table (no scan). */
  total: number;
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
};

/**
 * A post's approved comments, newest first, a page at a time by keyset (ids below `before`):
 * every page is a short walk of one index, however many comments the post has.
 */
export async function approvedComments(
  db: Db,
  postId: number,
  opts: { limit?: number; before?: number } = {},
): Promise<CommentPage> {
  const limit = Math.min(opts.limit ?? 50, 200);
  const query = db('comments')
    .where({ post_id: postId, approved: true })
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .select('id', 'post_id', 'author', 'content', 'likes', 'created_at');
  if (opts.before) query.where('id', '<', opts.before);
  const [rows, count] = await Promise.all([
    query,
    db('comment_counts').where({ post_id: postId }).first('approved'),
  ]);
  const page = rows.slice(0, limit);
  return {
    comments: page.map((r) => ({
      id: r.id,
      postId: r.post_id,
      author: r.author,
      content: r.content,
      likes: r.likes,
      createdAt: r.created_at.toISOString(),
    })),
    total: Number(count?.approved ?? 0),
    nextBefore: rows.length > limit ? page[page.length - 1].id : null,
  };
}

/**
 * Stores a new comment on a published post. Every new comment waits for moderation (so one with
 * more than two links is always held); null when the post does not exist or is not published.
 */
export async function createComment(
  db: Db,
  input: CommentInput,
  heldReason: string | null = null,
): Promise<{ id: number; approved: boolean } | null> {
  const post = await db('posts').where({ id: input.postId, status: 'published' }).first('id');
  if (!post) return null;
  const [row] = await db('comments')
    .insert({
      post_id: input.postId,
      author: input.author,
      email: input.email,
      content: input.content,
      approved: false,
      held_reason: heldReason,
    })
    .returning(['id', 'approved']);
  return { id: row.id, approved: row.approved };
}

/** One like per liker (session) and approved comment; returns the new count, or null when unknown. */
export async function likeComment(db: Db, commentId: number, liker: string): Promise<number | null> {
  return db.transaction(async (trx) => {
    const comment = await trx('comments').where({ id: commentId, approved: true }).first('id', 'likes');
    if (!comment) return null;
    const inserted = await trx('comment_likes')
      .insert({ comment_id: commentId, liker })
      .onConflict(['comment_id', 'liker'])
      .ignore()
      .returning('comment_id');
    if (!inserted.length) return comment.likes as number;
    const [updated] = await trx('comments').where({ id: commentId }).increment('likes', 1).returning('likes');
    return updated.likes as number;
  });
}

const FORM_KEY = 'comment_form_key';
/** A person takes longer than this to write a comment; a bot posting the form at once does not. */
export const MIN_FORM_SECONDS = 2;

async function formKey(db: Db): Promise<Buffer> {
  const existing = await db('app_meta').where({ key: FORM_KEY }).first('value');
  if (existing) return Buffer.from(existing.value as string, 'base64');
  const fresh = randomBytes(32).toString('base64');
  await db('app_meta')
    .insert({ key: FORM_KEY, value: JSON.stringify(fresh) })
    .onConflict('key')
    .ignore();
  const stored = await db('app_meta').where({ key: FORM_KEY }).first('value');
  return Buffer.from(stored.value as string, 'base64');
}

/** A signed timestamp for the comment form, checked when it comes back. */
export async function issueFormToken(db: Db, now = Date.now()): Promise<string> {
  const mac = createHmac('sha256', await formKey(db))
    .update(String(now))
    .digest('base64url');
  return `${now}.${mac}`;
}

/** 'ok', or why the submission looks automated. */
export async function checkFormToken(
  db: Db,
  token: string,
  now = Date.now(),
): Promise<'ok' | 'invalid' | 'too-fast'> {
  const [issued, mac] = token.split('.');
  const at = Number(issued);
  if (!Number.isInteger(at) || !mac) return 'invalid';
  const expected = createHmac('sha256', await formKey(db))
    .update(String(at))
    .digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  if (now - at < MIN_FORM_SECONDS * 1000) return 'too-fast';
  if (now - at > 24 * 3600 * 1000) return 'invalid';
  return 'ok';
}

/** The author a deleted account's comments show. */
export const DELETED_COMMENT_AUTHOR = 'Deleted user';

/**
 * A deleted account's comments (those written under its address) keep their text, which belongs
 * to the conversation; the name becomes 'Deleted user' and the address is erased.
 */
export async function anonymiseComments(db: Db | Knex.Transaction, email: string): Promise<number> {
  return db('comments')
    .whereRaw('lower(email) = lower(?)', [email])
    .update({ author: DELETED_COMMENT_AUTHOR, email: '', updated_at: db.fn.now() });
}
