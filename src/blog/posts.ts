import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { ANONYMOUS, canRead, type ReaderAccess } from './paywall.ts';
import type { PostVisibility } from './post-schema.ts';
import { readingMinutes } from './reading.ts';
import { toPrefixTsQuery } from './search.ts';
import { slugify } from './slug.ts';

export type PostAuthor = {
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  /**
   * An imported post's byline from the old site, with no account here: no /author/ page, and not
   * the writer of the settings' author card.
   */
  importedByline?: boolean;
};

/** A post as readers and the API see it (SPEC §3), never with the author's email. */
export type PostSummary = {
  id: number;
  title: string;
  slug: string;
  excerpt: string;
  category: string;
  tags: string[];
  featuredImage: string | null;
  featuredImageFile: string | null;
  youtubeVideoId: string | null;
  podcastUrl: string | null;
  status: string;
  viewCount: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  /** Moves on with every save and autosave; an editor's save names the one it started from. */
  version: number;
  /** Who may read the whole post (public, members, paid) and, for paid, which tiers (none: any). */
  visibility: PostVisibility;
  visibilityTiers: number[];
  author: PostAuthor;
};

/** What a post's card shows (lists, the lead, the carousel): all a listing page's data needs of it. */
export type PostCardData = Pick<
  PostSummary,
  | 'id'
  | 'title'
  | 'slug'
  | 'excerpt'
  | 'category'
  | 'featuredImage'
  | 'featuredImageFile'
  | 'youtubeVideoId'
  | 'podcastUrl'
  | 'viewCount'
  | 'createdAt'
  | 'publishedAt'
>;

/** A summary cut to its card: a page's data is serialized into it on every render. */
export function postCard(post: PostSummary): PostCardData {
  return {
    id: post.id,
    title: post.title,
    slug: post.slug,
    excerpt: post.excerpt,
    category: post.category,
    featuredImage: post.featuredImage,
    featuredImageFile: post.featuredImageFile,
    youtubeVideoId: post.youtubeVideoId,
    podcastUrl: post.podcastUrl,
    viewCount: post.viewCount,
    createdAt: post.createdAt,
    publishedAt: post.publishedAt,
  };
}

/** One post: the body, and the optional search and social overrides (null: the defaults). */
export type Post = PostSummary & {
  content: string;
  contentHtml: string;
  metaTitle: string | null;
  metaDescription: string | null;
  canonicalUrl: string | null;
  socialImage: string | null;
  /** The reader gets the public preview only: `content` and `contentHtml` end at the paywall. */
  locked: boolean;
};

export type Pagination = { page: number; limit: number; total: number; pages: number };

export type PostFilter = {
  status?: 'published' | 'draft' | 'scheduled' | 'all';
  category?: string;
  search?: string;
  tag?: string;
  /** Any of these tags: the spellings of one tag page's slug. */
  anyTag?: string[];
  authorId?: number;
  /** Posts the page already shows elsewhere (the home page's lead and carousel). */
  excludeIds?: number[];
  page?: number;
  limit?: number;
};

const SUMMARY_COLUMNS = [
  'p.id',
  'p.title',
  'p.slug',
  'p.excerpt',
  'p.category',
  'p.tags',
  'p.featured_image',
  'p.featured_image_file',
  'p.youtube_video_id',
  'p.podcast_url',
  'p.status',
  'p.view_count',
  'p.created_at',
  'p.updated_at',
  'p.published_at',
  'p.version',
  'p.visibility',
  'p.visibility_tiers',
  'u.first_name',
  'u.last_name',
  'u.username',
  'p.author_name',
];

type PostRow = {
  id: number;
  title: string;
  slug: string;
  excerpt: string;
  category: string;
  tags: string[];
  featured_image: string | null;
  featured_image_file: string | null;
  youtube_video_id: string | null;
  podcast_url: string | null;
  status: string;
  view_count: number;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  version: number;
  visibility: PostVisibility;
  visibility_tiers: number[];
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  author_name: string | null;
  content?: string;
  content_html?: string;
  meta_title?: string | null;
  meta_description?: string | null;
  canonical_url?: string | null;
  social_image?: string | null;
  preview_content?: string | null;
  preview_html?: string | null;
};

function presentSummary(row: PostRow): PostSummary {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    category: row.category,
    tags: row.tags ?? [],
    featuredImage: row.featured_image,
    featuredImageFile: row.featured_image_file,
    youtubeVideoId: row.youtube_video_id,
    // A gated episode's audio is only on its page, for readers with access.
    podcastUrl: row.visibility === 'public' ? row.podcast_url : null,
    status: row.status,
    viewCount: row.view_count,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    publishedAt: row.published_at?.toISOString() ?? null,
    version: row.version,
    visibility: row.visibility,
    visibilityTiers: row.visibility_tiers ?? [],
    // An imported post whose author has no account here keeps the old site's byline.
    author: {
      firstName: row.first_name,
      lastName: row.last_name,
      username: row.username ?? row.author_name,
      ...(row.username === null && row.author_name !== null ? { importedByline: true } : {}),
    },
  };
}

/**
 * A post for one reader: without access, its body is the stored public preview, so nothing past
 * the paywall is in what is returned.
 */
function present(row: PostRow, reader: ReaderAccess): Post {
  const summary = presentSummary(row);
  const locked = !canRead(summary, reader);
  return {
    ...summary,
    content: (locked ? row.preview_content : row.content) ?? '',
    contentHtml: (locked ? row.preview_html : row.content_html) ?? '',
    locked,
    podcastUrl: locked ? null : row.podcast_url,
    metaTitle: row.meta_title ?? null,
    metaDescription: row.meta_description ?? null,
    canonicalUrl: row.canonical_url ?? null,
    socialImage: row.social_image ?? null,
  };
}

function baseQuery(db: Db | Knex.Transaction): Knex.QueryBuilder {
  return db('posts as p').leftJoin('users as u', 'u.id', 'p.author_id');
}

/** Status and category: what the counts table and the date indexes know about. */
function applyListing(query: Knex.QueryBuilder, filter: PostFilter): Knex.QueryBuilder {
  const status = filter.status ?? 'published';
  if (status !== 'all') query.where('p.status', status);
  if (filter.category) query.where('p.category', filter.category);
  if (filter.excludeIds?.length) query.whereNotIn('p.id', filter.excludeIds);
  return query;
}

/** Search words, tag and author: what only a look at the post (or its GIN index) can tell. */
function applyMatch(query: Knex.QueryBuilder, filter: PostFilter): Knex.QueryBuilder {
  if (filter.tag) query.whereRaw('p.tags @> ARRAY[?]::text[]', [filter.tag]);
  if (filter.anyTag) query.whereRaw('p.tags && ?::text[]', [filter.anyTag]);
  if (filter.authorId !== undefined) query.where('p.author_id', filter.authorId);
  const tsquery = filter.search ? toPrefixTsQuery(filter.search) : null;
  if (filter.search && !tsquery) query.whereRaw('false');
  if (tsquery) query.whereRaw(`p.search @@ to_tsquery('english', ?)`, [tsquery]);
  return query;
}

/**
 * A search or tag filter lists at most this many matches (42 pages of 12), so a common word never
 * makes a count or a deep page visit every post.
 */
export const MATCH_COUNT_CAP = 500;

/** A search first looks at this many of the newest posts, one by one, before it asks the index. */
const SEARCH_WINDOW = 1000;

/** Posts of a status and category, from the counts table the triggers keep (no scan). */
async function listingTotal(db: Db, filter: PostFilter): Promise<number> {
  const status = filter.status ?? 'published';
  const query = db('post_counts').sum({ n: 'n' });
  if (status !== 'all') query.where({ status });
  if (filter.category) query.where({ category: filter.category });
  const row = (await query.first()) as { n: string | null } | undefined;
  if (!filter.excludeIds?.length) return Number(row?.n ?? 0);
  // The counts table cannot leave posts out: those of the few left out that the listing has are subtracted.
  const left = (await applyListing(db('posts as p').whereIn('p.id', filter.excludeIds), {
    ...filter,
    excludeIds: undefined,
  })
    .count({ n: '*' })
    .first()) as { n: string } | undefined;
  return Number(row?.n ?? 0) - Number(left?.n ?? 0);
}

function newestFirst(query: Knex.QueryBuilder, filter: PostFilter): Knex.QueryBuilder {
  // Published posts always have a date: the plain DESC order is the date index's own order.
  return (filter.status ?? 'published') === 'published'
    ? query.orderBy([
        { column: 'p.published_at', order: 'desc' },
        { column: 'p.id', order: 'desc' },
      ])
    : query.orderByRaw('p.published_at DESC NULLS LAST').orderBy('p.id', 'desc');
}

/**
 * The ids of one page of matches, newest first, and their number (up to MATCH_COUNT_CAP), in
 * bounded reads whatever the words:
 * 1. the newest SEARCH_WINDOW posts are tested one by one (a short walk of the date index): a
 *    common word fills the page from these alone; when at least a page of them match and, at that
 *    rate, the whole blog holds MATCH_COUNT_CAP or more, the count is the cap (an estimate, as
 *    search engines give: 'about');
 * 2. otherwise the matches are rare, and the GIN index finds and counts them: few rows to read.
 */
async function matchPage(
  db: Db,
  filter: PostFilter,
  limit: number,
  offset: number,
): Promise<{ ids: number[]; total: number }> {
  const window = newestFirst(
    applyListing(
      db('posts as p').select('p.id', 'p.published_at', 'p.search', 'p.tags', 'p.author_id'),
      filter,
    ),
    filter,
  ).limit(SEARCH_WINDOW);
  const [windowed, listed] = await Promise.all([
    newestFirst(applyMatch(db.select('p.id').from(window.as('p')), filter), filter) as Promise<
      { id: number }[]
    >,
    listingTotal(db, filter),
  ]);
  const inWindow = windowed.map((r) => r.id);
  const exhaustive = listed <= SEARCH_WINDOW;
  const page = inWindow.slice(offset, offset + limit);
  const pageFromWindow = exhaustive || inWindow.length >= offset + limit;
  const countFromWindow =
    exhaustive ||
    inWindow.length >= MATCH_COUNT_CAP ||
    (inWindow.length >= limit && (inWindow.length * listed) / SEARCH_WINDOW >= MATCH_COUNT_CAP);
  const indexedPage = async (): Promise<number[]> => {
    if (offset >= MATCH_COUNT_CAP) return [];
    if (pageFromWindow) return page;
    // An order the date index cannot give: the planner takes the GIN index and sorts the few matches.
    const rows: { id: number }[] = await applyMatch(
      applyListing(db('posts as p').select('p.id'), filter),
      filter,
    )
      .orderByRaw('coalesce(p.published_at, p.created_at) DESC, p.id DESC')
      .limit(limit)
      .offset(offset);
    return rows.map((r) => r.id);
  };
  const indexedCount = async (): Promise<number> => {
    if (exhaustive) return Math.min(inWindow.length, MATCH_COUNT_CAP);
    if (countFromWindow) return MATCH_COUNT_CAP;
    const matches = applyMatch(applyListing(db('posts as p').select(db.raw('1')), filter), filter).limit(
      MATCH_COUNT_CAP,
    );
    const row = (await db.count({ n: '*' }).from(matches.as('m')).first()) as { n: string } | undefined;
    return Number(row?.n ?? 0);
  };
  const [ids, total] = await Promise.all([indexedPage(), indexedCount()]);
  return { ids, total };
}

/**
 * Published posts (or any status for admins), newest first; searches too. The page's ids are found
 * first (an index-only read, cheap even at a deep offset), then only those rows are fetched.
 */
export async function listPosts(
  db: Db,
  filter: PostFilter,
): Promise<{ posts: PostSummary[]; pagination: Pagination }> {
  const limit = Math.min(Math.max(filter.limit ?? 12, 1), 100);
  const page = Math.max(filter.page ?? 1, 1);
  const offset = (page - 1) * limit;
  let rows: PostRow[];
  let total: number;
  if (filter.search || filter.tag || filter.anyTag || filter.authorId !== undefined) {
    const matched = await matchPage(db, filter, limit, offset);
    total = matched.total;
    const byId = new Map(
      ((await baseQuery(db).select(SUMMARY_COLUMNS).whereIn('p.id', matched.ids)) as PostRow[]).map((r) => [
        r.id,
        r,
      ]),
    );
    rows = matched.ids.flatMap((id) => byId.get(id) ?? []);
  } else {
    const pageIds = newestFirst(applyListing(db('posts as p').select('p.id'), filter), filter)
      .limit(limit)
      .offset(offset);
    [rows, total] = await Promise.all([
      newestFirst(baseQuery(db).select(SUMMARY_COLUMNS).whereIn('p.id', pageIds), filter) as Promise<
        PostRow[]
      >,
      listingTotal(db, filter),
    ]);
  }
  return {
    posts: rows.map(presentSummary),
    pagination: { page, limit, total, pages: Math.max(1, Math.ceil(total / limit)) },
  };
}

/** The newest published posts for the carousel. */
export async function latestPosts(db: Db, limit: number): Promise<PostSummary[]> {
  const rows = await baseQuery(db)
    .select(SUMMARY_COLUMNS)
    .where('p.status', 'published')
    .orderBy([
      { column: 'p.published_at', order: 'desc' },
      { column: 'p.id', order: 'desc' },
    ])
    .limit(limit);
  return (rows as PostRow[]).map(presentSummary);
}

/** Featured posts, newest first, from their own small index (posts_featured_idx): the home carousel. */
export async function featuredPosts(db: Db, limit: number): Promise<PostSummary[]> {
  const rows = await baseQuery(db)
    .select(SUMMARY_COLUMNS)
    .where('p.status', 'published')
    .where('p.featured', true)
    .orderBy([
      { column: 'p.published_at', order: 'desc' },
      { column: 'p.id', order: 'desc' },
    ])
    .limit(limit);
  return (rows as PostRow[]).map(presentSummary);
}

/**
 * The home page's lead: the newest featured post, else the newest post, with its reading time.
 * The featured one comes from its own small index (posts_featured_idx).
 */
export async function leadPost(db: Db): Promise<{ post: PostSummary; minutes: number } | null> {
  const newest = (featured: boolean) => {
    const query = baseQuery(db)
      .select([...SUMMARY_COLUMNS, 'p.content'])
      .where('p.status', 'published')
      .orderBy([
        { column: 'p.published_at', order: 'desc' },
        { column: 'p.id', order: 'desc' },
      ])
      .first();
    return (featured ? query.where('p.featured', true) : query) as Promise<PostRow | undefined>;
  };
  const row = (await newest(true)) ?? (await newest(false));
  return row ? { post: presentSummary(row), minutes: readingMinutes(row.content ?? '') } : null;
}

export async function getPost(
  db: Db,
  by: { id: number } | { slug: string },
  opts: { includeUnpublished?: boolean; reader?: ReaderAccess } = {},
): Promise<Post | null> {
  const query = baseQuery(db).select([
    ...SUMMARY_COLUMNS,
    'p.content',
    'p.content_html',
    'p.meta_title',
    'p.meta_description',
    'p.canonical_url',
    'p.social_image',
    'p.preview_content',
    'p.preview_html',
  ]);
  if ('id' in by) query.where('p.id', by.id);
  else query.where('p.slug', by.slug);
  if (!opts.includeUnpublished) query.where('p.status', 'published');
  const row = (await query.first()) as PostRow | undefined;
  return row ? present(row, opts.reader ?? ANONYMOUS) : null;
}

/** The post an old slug pointed to, after a title change. */
export async function slugRedirect(db: Db, slug: string): Promise<string | null> {
  const row = await db('post_slug_history as h')
    .join('posts as p', 'p.id', 'h.post_id')
    .where('h.slug', slug)
    .where('p.status', 'published')
    .first('p.slug');
  return row?.slug ?? null;
}

/**
 * The key an old site's address is stored under in post_slug_history: its path without the
 * trailing slash, plus WordPress's ?p= or ?page_id= query. Plain slugs never start with '/'.
 */
export function oldPathKey(pathWithQuery: string): string {
  const [path, query = ''] = pathWithQuery.split('?');
  const id = /(?:^|&)(p|page_id)=(\d+)(?:&|$)/.exec(query);
  return `${path.replace(/\/+$/, '') || '/'}${id ? `?${id[1]}=${id[2]}` : ''}`;
}

/** The slug of the published post an imported site's old address (path and query) now lives at. */
export async function oldPathRedirect(db: Db, pathWithQuery: string): Promise<string | null> {
  return slugRedirect(db, oldPathKey(pathWithQuery));
}

/** Up to 3 published posts of the same category, newest first, without the post itself. */
export async function relatedPosts(
  db: Db,
  post: { id: number; category: string },
  limit = 3,
): Promise<PostSummary[]> {
  const rows = await baseQuery(db)
    .select(SUMMARY_COLUMNS)
    .where('p.status', 'published')
    .where('p.category', post.category)
    .whereNot('p.id', post.id)
    .orderBy([
      { column: 'p.published_at', order: 'desc' },
      { column: 'p.id', order: 'desc' },
    ])
    .limit(limit);
  return (rows as PostRow[]).map(presentSummary);
}

export type PostLink = { slug: string; title: string };

/**
 * The published posts just before (older) and after (newer) a post, by publication date then id:
 * two reads of the date index.
 */
export async function adjacentPosts(
  db: Db,
  postId: number,
): Promise<{ previous: PostLink | null; next: PostLink | null }> {
  // The post's own key from the table: a JavaScript date would drop the microseconds. Both
  // neighbours in one statement, each a short walk of the date index.
  const key = '(SELECT published_at, id FROM posts WHERE id = ?)';
  const neighbour = (compare: '<' | '>', order: 'DESC' | 'ASC') =>
    `(SELECT json_build_object('slug', slug, 'title', title) FROM posts
      WHERE status = 'published' AND (published_at, id) ${compare} ${key}
      ORDER BY published_at ${order}, id ${order} LIMIT 1)`;
  const result = await db.raw(
    `SELECT ${neighbour('<', 'DESC')} AS previous, ${neighbour('>', 'ASC')} AS next`,
    [postId, postId],
  );
  return result.rows[0];
}

/** Categories that published posts use, alphabetically. */
export async function postCategories(db: Db): Promise<string[]> {
  const rows = await db('post_counts').where({ status: 'published' }).where('n', '>', 0).orderBy('category');
  return rows.map((r: { category: string }) => r.category);
}

/** Tags of published posts, alphabetically (at most 500). */
export async function postTags(db: Db): Promise<string[]> {
  const { rows } = await db.raw(
    `SELECT DISTINCT unnest(tags) AS tag FROM posts WHERE status = 'published' ORDER BY tag LIMIT 500`,
  );
  return rows.map((r: { tag: string }) => r.tag);
}

/** The spellings of a tag whose page is /tag/<slug> ('Dark mode' and 'dark mode' share one). */
export async function tagsForSlug(db: Db, slug: string): Promise<string[]> {
  return (await postTags(db)).filter((tag) => slugify(tag) === slug);
}

/** A category used by published posts, by its /category/<slug> URL, in its stored spelling. */
export async function categoryForSlug(db: Db, slug: string): Promise<string | null> {
  return (await postCategories(db)).find((category) => slugify(category) === slug) ?? null;
}

export type PostAuthorProfile = PostAuthor & { id: number };

/** A user who has published a post, by username (any case): whose page /author/<username> is. */
export async function publishedAuthor(db: Db, username: string): Promise<PostAuthorProfile | null> {
  const row = await db('users as u')
    .whereRaw('lower(u.username) = lower(?)', [username])
    .whereExists(
      db('posts as p').select(db.raw('1')).whereRaw('p.author_id = u.id').where('p.status', 'published'),
    )
    .first('u.id', 'u.first_name', 'u.last_name', 'u.username');
  return row
    ? { id: row.id, firstName: row.first_name, lastName: row.last_name, username: row.username }
    : null;
}

/** Usernames of the users with published posts, for the sitemap. */
export async function authorUsernames(db: Db): Promise<string[]> {
  const rows = await db('users as u')
    .whereNotNull('u.username')
    .whereExists(
      db('posts as p').select(db.raw('1')).whereRaw('p.author_id = u.id').where('p.status', 'published'),
    )
    .orderBy('u.username')
    .limit(1_000)
    .select('u.username');
  return rows.map((r: { username: string }) => r.username);
}
