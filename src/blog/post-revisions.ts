import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { Conflict } from '../kernel/errors.ts';
import { POST_MESSAGES } from './post-messages.ts';
import type { PostDraft, PostInput } from './post-schema.ts';
import type { PostAuthor } from './posts.ts';

export type RevisionKind = 'save' | 'publish' | 'autosave' | 'restore';

/** Revisions kept per post; the oldest go first. */
export const MAX_REVISIONS = 50;
/** An autosave within this long of the last autosave revision rewrites it instead of adding one. */
export const AUTOSAVE_WINDOW_MS = 10 * 60_000;

export type RevisionSettings = Omit<PostInput, 'title' | 'excerpt' | 'content' | 'publishAt'> & {
  publishAt: string | null;
};

export type PostRevision = {
  id: number;
  kind: RevisionKind;
  version: number;
  author: PostAuthor;
  title: string;
  excerpt: string;
  content: string;
  settings: RevisionSettings;
  createdAt: string;
  /** When it was last written: later than createdAt for an autosave rewritten in its window. */
  savedAt: string;
};

/** The 409 of a save based on a version the post has moved on from. */
export function assertVersion(current: number, base: number | undefined): void {
  if (base !== undefined && base !== current) throw new Conflict(POST_MESSAGES.changedElsewhere);
}

function columnsOf(input: PostInput | PostDraft) {
  const { title, excerpt, content, publishAt, ...rest } = input;
  const settings = { ...rest, publishAt: publishAt ? publishAt.toISOString() : null };
  return { title, excerpt, content, settings: JSON.stringify(settings) };
}

async function thin(trx: Knex.Transaction, postId: number): Promise<void> {
  await trx('post_revisions')
    .where({ post_id: postId })
    .whereNotIn(
      'id',
      trx('post_revisions')
        .select('id')
        .where({ post_id: postId })
        .orderBy('id', 'desc')
        .limit(MAX_REVISIONS),
    )
    .delete();
}

export async function recordRevision(
  trx: Knex.Transaction,
  postId: number,
  kind: RevisionKind,
  version: number,
  authorId: number | null,
  input: PostInput | PostDraft,
): Promise<number> {
  const [row] = await trx('post_revisions')
    .insert({ post_id: postId, kind, version, author_id: authorId, ...columnsOf(input) })
    .returning('id');
  await thin(trx, postId);
  return row.id;
}

/**
 * Stores the editor's draft copy without touching the post itself (a published post stays as it
 * is until 'Update'), and moves the post's version on so a stale tab's next save is refused.
 */
export async function autosavePost(
  db: Db,
  postId: number,
  baseVersion: number,
  draft: PostDraft,
  authorId: number | null,
): Promise<{ version: number; savedAt: string } | null> {
  return db.transaction(async (trx) => {
    const post = await trx('posts').where({ id: postId }).forUpdate().first('version');
    if (!post) return null;
    assertVersion(post.version, baseVersion);
    const version = post.version + 1;
    await trx('posts').where({ id: postId }).update({ version });
    const recent = await trx('post_revisions')
      .where({ post_id: postId, kind: 'autosave' })
      .where('created_at', '>', new Date(Date.now() - AUTOSAVE_WINDOW_MS))
      .orderBy('id', 'desc')
      .first('id');
    let savedAt: Date;
    if (recent) {
      [{ updated_at: savedAt }] = await trx('post_revisions')
        .where({ id: recent.id })
        .update({ ...columnsOf(draft), version, author_id: authorId, updated_at: trx.fn.now() })
        .returning('updated_at');
    } else {
      const id = await recordRevision(trx, postId, 'autosave', version, authorId, draft);
      [{ updated_at: savedAt }] = await trx('post_revisions').where({ id }).select('updated_at');
    }
    return { version, savedAt: savedAt.toISOString() };
  });
}

function present(row: Record<string, unknown>): PostRevision {
  return {
    id: row.id as number,
    kind: row.kind as RevisionKind,
    version: row.version as number,
    author: {
      firstName: (row.first_name as string) ?? null,
      lastName: (row.last_name as string) ?? null,
      username: (row.username as string) ?? null,
    },
    title: row.title as string,
    excerpt: row.excerpt as string,
    content: row.content as string,
    settings: row.settings as RevisionSettings,
    createdAt: (row.created_at as Date).toISOString(),
    savedAt: (row.updated_at as Date).toISOString(),
  };
}

function revisions(db: Db) {
  return db('post_revisions as r')
    .leftJoin('users as u', 'u.id', 'r.author_id')
    .select('r.*', 'u.first_name', 'u.last_name', 'u.username');
}

/** A post's revisions, newest first, or null when there is no such post. */
export async function listRevisions(db: Db, postId: number): Promise<PostRevision[] | null> {
  if (!(await db('posts').where({ id: postId }).first('id'))) return null;
  const rows = await revisions(db).where('r.post_id', postId).orderBy('r.id', 'desc');
  return rows.map(present);
}

export async function getRevision(db: Db, postId: number, revisionId: number): Promise<PostRevision | null> {
  const row = await revisions(db).where({ 'r.post_id': postId, 'r.id': revisionId }).first();
  return row ? present(row) : null;
}

/** Whether an autosaved draft is newer than the post's last save (it holds the post's version). */
export async function hasUnsavedDraft(
  trx: Knex.Transaction,
  postId: number,
  version: number,
): Promise<boolean> {
  return Boolean(
    await trx('post_revisions').where({ post_id: postId, kind: 'autosave', version }).first('id'),
  );
}

/** The autosaved draft newer than the post's last save (a closed tab, a crash), if there is one. */
export async function unsavedDraft(db: Db, postId: number): Promise<PostRevision | null> {
  const row = await revisions(db)
    .join('posts as p', function () {
      this.on('p.id', '=', 'r.post_id').andOn('p.version', '=', 'r.version');
    })
    .where({ 'r.post_id': postId, 'r.kind': 'autosave' })
    .first();
  return row ? present(row) : null;
}
