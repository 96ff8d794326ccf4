import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { uploadSizes, uploadsIn } from '../media/upload-sizes.ts';
import { productIdsIn, renderMarkdown } from './markdown.ts';
import { previewColumns, withoutPaywallLine } from './paywall.ts';
import { POST_MESSAGES } from './post-messages.ts';
import {
  assertVersion,
  getRevision,
  hasUnsavedDraft,
  type RevisionKind,
  recordRevision,
} from './post-revisions.ts';
import { type PostInput, type PostStatus, type PostVisibility, postInputSchema } from './post-schema.ts';
import { slugify } from './slug.ts';

export type EditablePost = {
  id: number;
  title: string;
  slug: string;
  content: string;
  excerpt: string;
  category: string;
  tags: string[];
  featuredImage: string | null;
  featuredImageFile: string | null;
  youtubeVideoId: string | null;
  podcastUrl: string | null;
  metaTitle: string | null;
  metaDescription: string | null;
  canonicalUrl: string | null;
  socialImage: string | null;
  status: PostStatus;
  visibility: PostVisibility;
  visibilityTiers: number[];
  publishAt: string | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
};

export type AdminPostListItem = {
  id: number;
  title: string;
  slug: string;
  excerpt: string;
  category: string;
  status: PostStatus;
  publishAt: string | null;
  viewCount: number;
  author: { firstName: string | null; lastName: string | null; username: string | null };
  createdAt: string;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function presentEditable(row: Record<string, unknown>): EditablePost {
  return {
    id: row.id as number,
    title: row.title as string,
    slug: row.slug as string,
    content: row.content as string,
    excerpt: row.excerpt as string,
    category: row.category as string,
    tags: (row.tags as string[]) ?? [],
    featuredImage: (row.featured_image as string) ?? null,
    featuredImageFile: (row.featured_image_file as string) ?? null,
    youtubeVideoId: (row.youtube_video_id as string) ?? null,
    podcastUrl: (row.podcast_url as string) ?? null,
    metaTitle: (row.meta_title as string) ?? null,
    metaDescription: (row.meta_description as string) ?? null,
    canonicalUrl: (row.canonical_url as string) ?? null,
    socialImage: (row.social_image as string) ?? null,
    status: row.status as PostStatus,
    visibility: row.visibility as PostVisibility,
    visibilityTiers: (row.visibility_tiers as number[]) ?? [],
    publishAt: iso(row.publish_at as Date | null),
    publishedAt: iso(row.published_at as Date | null),
    createdAt: iso(row.created_at as Date) as string,
    updatedAt: iso(row.updated_at as Date) as string,
    version: row.version as number,
  };
}

export async function getEditablePost(db: Db, id: number): Promise<EditablePost | null> {
  const row = await db('posts').where({ id }).first();
  return row ? presentEditable(row) : null;
}

/** The admin's list: every status, newest first, a page at a time, with search over title, excerpt and category. */
export async function listAdminPosts(
  db: Db,
  filter: { search?: string; status?: PostStatus | 'all'; page?: number; limit?: number } = {},
): Promise<{
  posts: AdminPostListItem[];
  pagination: { page: number; limit: number; total: number; pages: number };
}> {
  const limit = Math.min(Math.max(Math.trunc(filter.limit ?? 25), 1), 200);
  const page = Math.max(Math.trunc(filter.page ?? 1), 1);
  const base = db('posts as p');
  if (filter.status && filter.status !== 'all') base.where('p.status', filter.status);
  const search = filter.search?.trim();
  if (search) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((q) =>
      q.whereILike('p.title', like).orWhereILike('p.excerpt', like).orWhereILike('p.category', like),
    );
  }
  const [[{ count }], rows] = await Promise.all([
    base.clone().count<{ count: string }[]>({ count: '*' }),
    base
      .clone()
      .leftJoin('users as u', 'u.id', 'p.author_id')
      .select(
        'p.id',
        'p.title',
        'p.slug',
        'p.excerpt',
        'p.category',
        'p.status',
        'p.publish_at',
        'p.view_count',
        'p.created_at',
        'u.first_name',
        'u.last_name',
        'u.username',
      )
      .orderBy([
        { column: 'p.created_at', order: 'desc' },
        { column: 'p.id', order: 'desc' },
      ])
      .limit(limit)
      .offset((page - 1) * limit),
  ]);
  const total = Number(count);
  return {
    posts: rows.map((row) => ({
      id: row.id,
      title: row.title,
      slug: row.slug,
      excerpt: row.excerpt,
      category: row.category,
      status: row.status,
      publishAt: iso(row.publish_at),
      viewCount: row.view_count,
      author: { firstName: row.first_name, lastName: row.last_name, username: row.username },
      createdAt: iso(row.created_at) as string,
    })),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
  };
}

/**
 * A slug that no other post uses now or used before (old slugs keep redirecting to their post).
 * Numbered suffixes settle collisions: my-post, my-post-2, my-post-3…
 */
export async function uniqueSlug(
  trx: Knex.Transaction,
  wanted: string,
  postId: number | null,
): Promise<string> {
  const base = slugify(wanted) || 'post';
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const taken = await trx('posts')
      .where({ slug: candidate })
      .modify((q) => {
        if (postId !== null) q.whereNot({ id: postId });
      })
      .first('id');
    const historic = await trx('post_slug_history')
      .where({ slug: candidate })
      .modify((q) => {
        if (postId !== null) q.whereNot({ post_id: postId });
      })
      .first('post_id');
    if (!taken && !historic) return candidate;
  }
}

/** The columns a save writes; the body's uploads come with their recorded sizes (its srcset). */
async function columnsOf(db: Db, input: PostInput) {
  const sizes = await uploadSizes(db, uploadsIn(input.content));
  return {
    title: input.title,
    content: input.content,
    content_html: renderMarkdown(withoutPaywallLine(input.content), sizes),
    visibility: input.visibility,
    visibility_tiers: input.visibility === 'paid' ? input.visibilityTiers : [],
    ...previewColumns(input.content, input.visibility, sizes),
    excerpt: input.excerpt,
    category: input.category,
    tags: input.tags,
    featured_image: input.featuredImage,
    featured_image_file: input.featuredImageFile,
    youtube_video_id: input.youtubeVideoId,
    podcast_url: input.podcastUrl,
    meta_title: input.metaTitle,
    meta_description: input.metaDescription,
    canonical_url: input.canonicalUrl,
    social_image: input.socialImage,
    status: input.status,
    publish_at: input.status === 'scheduled' ? input.publishAt : null,
  };
}

/**
 * Whether a save's columns are those stored. The rendered HTML is left out: it follows from the
 * Markdown, and a newer renderer is no change of the writer's.
 */
function sameColumns(columns: Awaited<ReturnType<typeof columnsOf>>, row: Record<string, unknown>): boolean {
  return Object.entries(columns).every(
    ([name, value]) =>
      name === 'content_html' ||
      name === 'preview_html' ||
      JSON.stringify(value) === JSON.stringify(row[name]),
  );
}

/** Keeps post_products in step with the post's [product:ID] markers (the editor's saves, and imports). */
export async function syncProducts(trx: Knex.Transaction, postId: number, content: string): Promise<void> {
  await trx('post_products').where({ post_id: postId }).delete();
  const ids = productIdsIn(content);
  if (ids.length) await trx('post_products').insert(ids.map((id) => ({ post_id: postId, product_id: id })));
}

/** Enqueues the delayed publish of a scheduled post. jobId per post and time: rescheduling is safe. */
export async function schedulePublish(
  queues: Queues,
  post: Pick<EditablePost, 'id' | 'status' | 'publishAt'>,
): Promise<void> {
  if (post.status !== 'scheduled' || !post.publishAt) return;
  const at = new Date(post.publishAt);
  await queues.enqueue(
    'maintenance.publish-post',
    { postId: post.id, publishAt: post.publishAt },
    { jobId: `publish-post-${post.id}-${at.getTime()}`, delay: Math.max(0, at.getTime() - Date.now()) },
  );
}

export async function createPost(
  db: Db,
  queues: Queues,
  input: PostInput,
  authorId: number | null,
): Promise<EditablePost> {
  const post = await db.transaction(async (trx) => {
    const slug = await uniqueSlug(trx, input.slug ?? input.title, null);
    const [row] = await trx('posts')
      .insert({
        ...(await columnsOf(trx, input)),
        slug,
        author_id: authorId,
        published_at: input.status === 'published' ? trx.fn.now() : null,
      })
      .returning('*');
    await syncProducts(trx, row.id, input.content);
    await recordRevision(
      trx,
      row.id,
      input.status === 'published' ? 'publish' : 'save',
      row.version,
      authorId,
      input,
    );
    return presentEditable(row);
  });
  await schedulePublish(queues, post);
  return post;
}

export type SaveOptions = {
  authorId: number | null;
  /** The version the editor started from; without it (older API clients) the save is not checked. */
  baseVersion?: number;
  kind?: RevisionKind;
};

/**
 * Saves a post and stores it as a revision, when anything changed: a save of what is stored
 * writes nothing (or, after an autosave, only moves the version on past its draft). A new slug (from an edited slug or title) keeps the
 * old one in post_slug_history so old links redirect. published_at is set when first published.
 */
export async function updatePost(
  db: Db,
  queues: Queues,
  id: number,
  input: PostInput,
  opts: SaveOptions,
): Promise<EditablePost | null> {
  const post = await db.transaction(async (trx) => {
    const current = await trx('posts').where({ id }).forUpdate().first();
    if (!current) return null;
    assertVersion(current.version, opts.baseVersion);
    const slug = await uniqueSlug(trx, input.slug ?? input.title, id);
    const columns = await columnsOf(trx, input);
    const unchanged = slug === current.slug && sameColumns(columns, current);
    // Nothing to save, and no autosaved draft for this save to settle: nothing is written.
    if (unchanged && !(await hasUnsavedDraft(trx, id, current.version))) return presentEditable(current);
    if (slug !== current.slug) {
      await trx('post_slug_history')
        .insert({ slug: current.slug, post_id: id })
        .onConflict('slug')
        .merge({ post_id: id, created_at: trx.fn.now() });
      await trx('post_slug_history').where({ slug, post_id: id }).delete();
    }
    const [row] = await trx('posts')
      .where({ id })
      .update({
        ...columns,
        slug,
        published_at: current.published_at ?? (input.status === 'published' ? trx.fn.now() : null),
        updated_at: trx.fn.now(),
        version: current.version + 1,
      })
      .returning('*');
    await syncProducts(trx, id, input.content);
    const kind = opts.kind ?? (input.status === 'published' ? 'publish' : 'save');
    if (!unchanged) await recordRevision(trx, id, kind, row.version, opts.authorId, input);
    return presentEditable(row);
  });
  if (post) await schedulePublish(queues, post);
  return post;
}

/**
 * Puts a revision back as the post (for a published post, live at once: restoring is explicit),
 * recorded as a revision of its own. A revision that no longer passes the editor's checks (an
 * autosave of a half-written post) is refused with the check's message.
 */
export async function restoreRevision(
  db: Db,
  queues: Queues,
  postId: number,
  revisionId: number,
  opts: Omit<SaveOptions, 'kind'>,
): Promise<EditablePost> {
  const revision = await getRevision(db, postId, revisionId);
  if (!revision) throw new NotFound(POST_MESSAGES.revisionNotFound);
  const current = await getEditablePost(db, postId);
  if (!current) throw new NotFound(POST_MESSAGES.notFound);
  const parsed = postInputSchema.safeParse({
    // A revision from before visibility existed keeps the post's own: restoring never opens a paywall.
    ...{ visibility: current.visibility, visibilityTiers: current.visibilityTiers },
    ...revision.settings,
    title: revision.title,
    excerpt: revision.excerpt,
    content: revision.content,
  });
  if (!parsed.success) throw new Invalid(parsed.error.issues[0]?.message ?? POST_MESSAGES.requiredFields);
  const post = await updatePost(db, queues, postId, parsed.data, { ...opts, kind: 'restore' });
  if (!post) throw new NotFound(POST_MESSAGES.notFound);
  return post;
}

export async function deletePost(db: Db, id: number): Promise<boolean> {
  return (await db('posts').where({ id }).delete()) > 0;
}
