import type { Db } from '../db/knex.ts';
import type { SessionUser } from '../kernel/request.ts';
import { createComment, queueCommentNotices } from './comments.ts';
import { authorName } from './reading.ts';

export const COMMENTS_PAGE_SIZE = 20;

export type ModerationComment = {
  id: number;
  postId: number;
  author: string;
  /** Shown to admins only: the moderation screens are admin-only. */
  email: string;
  content: string;
  approved: boolean;
  /** Rejected by a moderator: out of the queue, never shown on the site. */
  rejected: boolean;
  /** Why it was held as suspected spam, or null. */
  heldReason: string | null;
  likes: number;
  /** Marked 'Author' on the site. */
  byAuthor: boolean;
  createdAt: string;
  post: { id: number; title: string; slug: string };
  /** The comment this one answers, for the moderator's 'Reply to <name>'. */
  replyTo: { id: number; author: string } | null;
};

export const COMMENT_STATUS_FILTERS = ['all', 'approved', 'pending', 'rejected'] as const;
export type CommentStatusFilter = (typeof COMMENT_STATUS_FILTERS)[number];

function present(row: Record<string, unknown>): ModerationComment {
  return {
    id: row.id as number,
    postId: row.post_id as number,
    author: row.author as string,
    email: row.email as string,
    content: row.content as string,
    approved: row.approved as boolean,
    rejected: row.rejected as boolean,
    heldReason: (row.held_reason as string | null) ?? null,
    likes: row.likes as number,
    byAuthor: row.by_author as boolean,
    createdAt: new Date(row.created_at as Date).toISOString(),
    post: { id: row.post_id as number, title: row.post_title as string, slug: row.post_slug as string },
    replyTo: row.reply_to_id
      ? { id: row.reply_to_id as number, author: (row.reply_to_author as string | null) ?? '' }
      : null,
  };
}

function baseQuery(db: Db) {
  return db('comments as c')
    .join('posts as p', 'p.id', 'c.post_id')
    .leftJoin('comments as r', 'r.id', 'c.reply_to_id')
    .select('c.*', 'p.title as post_title', 'p.slug as post_slug', 'r.author as reply_to_author');
}

/** Every comment, newest first, filtered by status and a search over author, email, content and post title. */
export async function listComments(
  db: Db,
  opts: { status?: CommentStatusFilter; search?: string; page?: number; limit?: number } = {},
): Promise<{
  comments: ModerationComment[];
  pagination: { page: number; limit: number; total: number; pages: number };
}> {
  const limit = opts.limit ?? COMMENTS_PAGE_SIZE;
  const page = Math.max(1, opts.page ?? 1);
  const filtered = baseQuery(db);
  if (opts.status === 'approved') filtered.where('c.approved', true);
  if (opts.status === 'pending') filtered.where({ 'c.approved': false, 'c.rejected': false });
  if (opts.status === 'rejected') filtered.where('c.rejected', true);
  const search = opts.search?.trim();
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filtered.where((q) =>
      q
        .whereILike('c.author', like)
        .orWhereILike('c.email', like)
        .orWhereILike('c.content', like)
        .orWhereILike('p.title', like),
    );
  }
  const [{ count }] = await filtered.clone().clearSelect().count<{ count: number }[]>('* as count');
  const rows = await filtered
    .orderBy([
      { column: 'c.created_at', order: 'desc' },
      { column: 'c.id', order: 'desc' },
    ])
    .limit(limit)
    .offset((page - 1) * limit);
  const total = Number(count);
  return { comments: rows.map(present), pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
}

/** Pending comments, oldest first: the moderation queue. */
export async function listPendingComments(db: Db, limit = 100, page = 1): Promise<ModerationComment[]> {
  const rows = await baseQuery(db)
    .where({ 'c.approved': false, 'c.rejected': false })
    .orderBy([
      { column: 'c.created_at', order: 'asc' },
      { column: 'c.id', order: 'asc' },
    ])
    .limit(limit)
    .offset((page - 1) * limit);
  return rows.map(present);
}

/** From the per-post counts the triggers keep, not a count of every comment. */
export async function commentCounts(
  db: Db,
): Promise<{ total: number; pending: number; approved: number; rejected: number }> {
  const row = await db('comment_counts').first(
    db.raw('coalesce(sum(approved + pending + rejected), 0)::int as total'),
    db.raw('coalesce(sum(pending), 0)::int as pending'),
    db.raw('coalesce(sum(approved), 0)::int as approved'),
    db.raw('coalesce(sum(rejected), 0)::int as rejected'),
  );
  return {
    total: row?.total ?? 0,
    pending: row?.pending ?? 0,
    approved: row?.approved ?? 0,
    rejected: row?.rejected ?? 0,
  };
}

/** approve: shown on the site; reject: out of the queue, not shown; pending: back into the queue. */
/** A comment as the audit log names it: 'comment #12 by Ann on “Hello”' (null when there is none). */
export async function commentLabel(db: Db, id: number): Promise<string | null> {
  const row = await db('comments as c')
    .join('posts as p', 'p.id', 'c.post_id')
    .where('c.id', id)
    .first('c.author', 'p.title');
  return row ? `comment #${id} by ${row.author} on “${row.title}”` : null;
}

export const MODERATION_DECISIONS = ['approve', 'reject', 'pending'] as const;
export type ModerationDecision = (typeof MODERATION_DECISIONS)[number];

/** Returns false when there is no such comment. An approval queues the mails the commenters asked for. */
export async function moderateComment(db: Db, id: number, decision: ModerationDecision): Promise<boolean> {
  const state = { approved: decision === 'approve', rejected: decision === 'reject' };
  return db.transaction(async (trx) => {
    const changed = await trx('comments')
      .where({ id })
      .update({ ...state, updated_at: trx.fn.now() });
    if (changed > 0 && state.approved) await queueCommentNotices(trx, id);
    return changed > 0;
  });
}

/**
 * The admin answers a comment from moderation: the reply is published at once, marked 'Author',
 * under the admin's name. Answering a comment still pending approves it too (an answer under a
 * hidden comment would not be seen). False when there is no such comment or its post is not published.
 */
export async function replyFromModeration(
  db: Db,
  admin: SessionUser,
  id: number,
  content: string,
): Promise<boolean> {
  const answered = await db('comments as c')
    .join('posts as p', 'p.id', 'c.post_id')
    .where({ 'c.id': id, 'p.status': 'published' })
    .first('c.post_id', 'c.approved');
  if (!answered) return false;
  if (!answered.approved) await moderateComment(db, id, 'approve');
  const created = await createComment(
    db,
    {
      postId: answered.post_id,
      parentId: id,
      author: authorName(admin),
      email: admin.email,
      content,
      notify: false,
    },
    { writer: admin },
  );
  return typeof created === 'object';
}

export async function deleteComment(db: Db, id: number): Promise<boolean> {
  return (await db('comments').where({ id }).delete()) > 0;
}
