import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { linkKey } from '../db/site-secret.ts';
import { writeOutbox } from '../jobs/outbox.ts';
import type { RequestSession } from '../kernel/request.ts';
import type { CommentInput } from './comment-schema.ts';

/** A comment as the public sees it: never the email. */
export type PublicComment = {
  id: number;
  postId: number;
  /** The top-level comment a reply is shown under; null for a top-level comment. */
  parentId: number | null;
  author: string;
  content: string;
  likes: number;
  /** Written by the post's author or an admin, signed in: marked 'Author'. */
  byAuthor: boolean;
  createdAt: string;
};

/** A top-level comment with its approved replies, oldest first. */
export type CommentThread = PublicComment & { replies: PublicComment[] };

export type CommentPage = {
  comments: CommentThread[];
  /** Every approved comment of the post, replies included, from the counts table (no scan). */
  total: number;
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
};

const PUBLIC_COLUMNS = [
  'id',
  'post_id',
  'parent_id',
  'author',
  'content',
  'likes',
  'by_author',
  'created_at',
];

function present(r: Record<string, unknown>): PublicComment {
  return {
    id: r.id as number,
    postId: r.post_id as number,
    parentId: (r.parent_id as number | null) ?? null,
    author: r.author as string,
    content: r.content as string,
    likes: r.likes as number,
    byAuthor: r.by_author as boolean,
    createdAt: (r.created_at as Date).toISOString(),
  };
}

/**
 * A post's approved top-level comments, newest first, a page at a time by keyset (ids below
 * `before`), each with its approved replies: every page is a short walk of two indexes, however
 * many comments the post has.
 */
export async function approvedComments(
  db: Db,
  postId: number,
  opts: { limit?: number; before?: number } = {},
): Promise<CommentPage> {
  const limit = Math.min(opts.limit ?? 50, 200);
  const query = db('comments')
    .where({ post_id: postId, approved: true })
    .whereNull('parent_id')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .select(PUBLIC_COLUMNS);
  if (opts.before) query.where('id', '<', opts.before);
  const [rows, count] = await Promise.all([
    query,
    db('comment_counts').where({ post_id: postId }).first('approved'),
  ]);
  const page = rows.slice(0, limit);
  const replies = page.length
    ? await db('comments')
        .whereIn(
          'parent_id',
          page.map((r) => r.id),
        )
        .where({ approved: true })
        .orderBy('id')
        .select(PUBLIC_COLUMNS)
    : [];
  return {
    comments: page.map((r) => ({
      ...present(r),
      replies: replies.filter((reply) => reply.parent_id === r.id).map(present),
    })),
    total: Number(count?.approved ?? 0),
    nextBefore: rows.length > limit ? page[page.length - 1].id : null,
  };
}

/** Who wrote a comment signed in: an admin's is published at once, and theirs and the post author's are marked. */
export type CommentWriter = { id: number; role: 'user' | 'admin' };

/** The signed-in writer of a request's comment; an admin still owing two-factor setup writes as a reader. */
export function commentWriter(session: RequestSession): CommentWriter | null {
  if (!session.user || (session.user.role === 'admin' && session.twoFactorSetupDue)) return null;
  return session.user;
}

/**
 * Stores a new comment on a published post. A reader's waits for moderation (so one with more
 * than two links is always held); an admin's is published at once. A reply names the comment it
 * answers, which must be on the same post and public (an admin may answer a pending one); a reply
 * to a reply is shown under the same top-level comment. 'no-post' when the post does not exist or
 * is not published, 'no-parent' when the answered comment is not there.
 */
export async function createComment(
  db: Db,
  input: CommentInput,
  opts: { heldReason?: string | null; writer?: CommentWriter | null } = {},
): Promise<{ id: number; approved: boolean; parentId: number | null } | 'no-post' | 'no-parent'> {
  return db.transaction(async (trx) => {
    const post = await trx('posts').where({ id: input.postId, status: 'published' }).first('id', 'author_id');
    if (!post) return 'no-post';
    const admin = opts.writer?.role === 'admin';
    let thread: { parent_id: number; reply_to_id: number } | null = null;
    if (input.parentId) {
      const answered = await trx('comments')
        .where({ id: input.parentId, post_id: input.postId })
        .first('id', 'parent_id', 'approved');
      if (!answered || (!answered.approved && !admin)) return 'no-parent';
      thread = { parent_id: answered.parent_id ?? answered.id, reply_to_id: answered.id };
    }
    const [row] = await trx('comments')
      .insert({
        post_id: input.postId,
        author: input.author,
        email: input.email,
        content: input.content,
        approved: admin,
        held_reason: opts.heldReason ?? null,
        notify: input.notify,
        by_author: admin || (opts.writer != null && opts.writer.id === post.author_id),
        ...thread,
      })
      .returning(['id', 'approved', 'parent_id']);
    if (row.approved) await queueCommentNotices(trx, row.id);
    return { id: row.id, approved: row.approved, parentId: row.parent_id ?? null };
  });
}

/**
 * After a comment is approved: its writer is told it is published, and the writer of the comment
 * it answers that it was answered, when they asked for mail. Each notice is queued once for good
 * (the *_notice_at column is claimed first), however often the comment is approved again.
 */
export async function queueCommentNotices(trx: Knex.Transaction, commentId: number): Promise<void> {
  const claimed = (column: 'published_notice_at' | 'reply_notice_at') =>
    trx('comments')
      .where({ id: commentId, approved: true })
      .whereNull(column)
      .update({ [column]: trx.fn.now() })
      .returning('id');
  const comment = await trx('comments').where({ id: commentId }).first('notify', 'email', 'reply_to_id');
  if (!comment) return;
  if (comment.notify && (await claimed('published_notice_at')).length)
    await writeOutbox(
      trx,
      'mail.comment-notice',
      { commentId, kind: 'published' },
      `comment-published-${commentId}`,
    );
  if (comment.reply_to_id === null) return;
  const answered = await trx('comments').where({ id: comment.reply_to_id }).first('notify', 'email');
  // Nobody is told about their own answer to themselves.
  if (!answered?.notify || answered.email.toLowerCase() === comment.email.toLowerCase()) return;
  if ((await claimed('reply_notice_at')).length)
    await writeOutbox(trx, 'mail.comment-notice', { commentId, kind: 'reply' }, `comment-reply-${commentId}`);
}

/** One like per liker (session) and approved comment; returns the new count, or null when unknown. */
/**
 * Who a like counts for: the session, or for a client without one (none is made for it: a
 * session per like would let anyone count again with each request and grow the sessions table)
 * its address, once a day, named by a keyed hash (the address itself is not stored).
 */
export async function likerOf(db: Db, sessionId: string | null, address: string): Promise<string> {
  if (sessionId) return sessionId;
  return `address:${await linkKey(db, `comment-like ${address} ${new Date().toISOString().slice(0, 10)}`)}`;
}

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

const formKeys = new WeakMap<Db, Promise<Buffer>>();

/** Read once per process: the key never changes once made, and every post page signs with it. */
function formKey(db: Db): Promise<Buffer> {
  let key = formKeys.get(db);
  if (!key) {
    key = readFormKey(db);
    key.catch(() => formKeys.delete(db));
    formKeys.set(db, key);
  }
  return key;
}

async function readFormKey(db: Db): Promise<Buffer> {
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
