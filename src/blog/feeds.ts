import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { getBlogSettings } from '../settings/settings.ts';
import { ANONYMOUS, type ReaderAccess } from './paywall.ts';
import { authorUsernames, postCategories, postTags } from './posts.ts';
import { slugify } from './slug.ts';

/** Escapes text for XML element content and attribute values. */
export function xml(text: string): string {
  const escaped = text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );
  // Drops the characters XML 1.0 does not allow at all (C0 controls but tab, newline, return).
  return [...escaped]
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return code >= 0x20
        ? code !== 0xfffe && code !== 0xffff
        : code === 0x09 || code === 0x0a || code === 0x0d;
    })
    .join('');
}

const absolute = (base: string, url: string) =>
  /^https?:\/\//.test(url) ? url : `${base}${url.startsWith('/') ? '' : '/'}${url}`;

const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/opus',
  flac: 'audio/flac',
};

/** The audio MIME type a file name suggests (MP3 when it says nothing). */
export function audioType(pathname: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase() ?? '';
  return AUDIO_TYPES[extension] ?? 'audio/mpeg';
}

/** An RSS enclosure's size in bytes and MIME type. */
export type Enclosure = { length: number; type: string };

/** Learns an audio URL's enclosure (the feeds stay free of file-system and network code). */
export type MeasureEnclosure = (url: string) => Promise<Enclosure>;

function enclosureTag(base: string, url: string, enclosure: Enclosure): string {
  return `<enclosure url="${xml(absolute(base, url))}" length="${enclosure.length}" type="${xml(enclosure.type)}"/>`;
}

type FeedPost = {
  id: number;
  title: string;
  slug: string;
  excerpt: string;
  category: string;
  podcast_url: string | null;
  published_at: Date;
  visibility: string;
};

async function newest(
  db: Db,
  limit: number,
  only: { podcasts?: boolean; anyTag?: string[]; reader?: ReaderAccess },
): Promise<FeedPost[]> {
  const query = db('posts')
    .where({ status: 'published' })
    .orderBy([
      { column: 'published_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select('id', 'title', 'slug', 'excerpt', 'category', 'podcast_url', 'published_at', 'visibility');
  // The public podcast feed carries public episodes only; a member's private feed adds theirs.
  if (only.podcasts) query.whereNotNull('podcast_url').where((w) => readableBy(w, only.reader ?? ANONYMOUS));
  if (only.anyTag) query.whereRaw('tags && ?::text[]', [only.anyTag]);
  return query;
}

/** Posts a reader may read whole, in SQL (canRead's rule). */
function readableBy(query: Knex.QueryBuilder, reader: ReaderAccess): Knex.QueryBuilder {
  if (reader.full) return query;
  query.where({ visibility: 'public' });
  if (reader.signedIn) query.orWhere({ visibility: 'members' });
  if (reader.paidTierId !== null)
    query.orWhere((paid) =>
      paid
        .where({ visibility: 'paid' })
        .whereRaw(`(visibility_tiers = '{}' OR ? = ANY(visibility_tiers))`, [reader.paidTierId]),
    );
  return query;
}

/** A feed of one tag's posts: its spellings, its name and its page's path. */
export type TagFeed = { anyTag: string[]; name: string; path: string };

/**
 * RSS 2.0 with the 20 newest posts (of one tag when given); podcast posts carry their audio as an
 * enclosure.
 */
export async function rssFeed(
  db: Db,
  base: string,
  measure: MeasureEnclosure,
  tag?: TagFeed,
): Promise<string> {
  const [settings, posts] = await Promise.all([getBlogSettings(db), newest(db, 20, { anyTag: tag?.anyTag })]);
  const title = tag ? `${settings.title}: #${tag.name}` : settings.title;
  const link = `${base}${tag?.path ?? '/'}`;
  const self = `${base}${tag ? `${tag.path}/rss.xml` : '/rss.xml'}`;
  const items = await Promise.all(
    posts.map(async (p) => {
      const link = `${base}/post/${p.slug}`;
      // A gated episode's audio is for its members only: the item links to its page.
      const enclosure =
        p.podcast_url && p.visibility === 'public'
          ? enclosureTag(base, p.podcast_url, await measure(p.podcast_url))
          : '';
      return `<item><title>${xml(p.title)}</title><link>${xml(link)}</link><guid isPermaLink="true">${xml(link)}</guid><description>${xml(p.excerpt)}</description><category>${xml(p.category)}</category><pubDate>${p.published_at.toUTCString()}</pubDate>${enclosure}</item>`;
    }),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>${xml(title)}</title><link>${xml(link)}</link><description>${xml(settings.description)}</description><language>en-us</language><atom:link href="${xml(self)}" rel="self" type="application/rss+xml"/>${items.join('')}</channel></rss>\n`;
}

/**
 * The podcast posts as a feed podcast apps accept (iTunes tags, enclosures with length and type):
 * the public episodes, or with a member's private feed (`self`) the episodes they may hear.
 */
export async function podcastFeed(
  db: Db,
  base: string,
  measure: MeasureEnclosure,
  member?: { reader: ReaderAccess; self: string },
): Promise<string> {
  const [settings, posts] = await Promise.all([
    getBlogSettings(db),
    newest(db, 100, { podcasts: true, reader: member?.reader }),
  ]);
  const items = await Promise.all(
    posts.map(async (p) => {
      const link = `${base}/post/${p.slug}`;
      const audio = p.podcast_url ?? '';
      return `<item><title>${xml(p.title)}</title><link>${xml(link)}</link><guid isPermaLink="false">penstand-post-${p.id}</guid><description>${xml(p.excerpt)}</description><itunes:summary>${xml(p.excerpt)}</itunes:summary><itunes:author>${xml(settings.authorName)}</itunes:author><itunes:explicit>false</itunes:explicit>${enclosureTag(base, audio, await measure(audio))}<pubDate>${p.published_at.toUTCString()}</pubDate></item>`;
    }),
  );
  // A PNG of the size Apple requires, never the author picture (an SVG, or any size).
  const image = `<itunes:image href="${xml(base)}/podcast-cover.png"/>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>${xml(settings.title)} Podcast</title><link>${xml(base)}/</link><description>${xml(settings.description)}</description><language>en-us</language><itunes:author>${xml(settings.authorName)}</itunes:author><itunes:summary>${xml(settings.description)}</itunes:summary><itunes:category text="Technology"/><itunes:explicit>false</itunes:explicit>${image}<atom:link href="${xml(member?.self ?? `${base}/podcast.xml`)}" rel="self" type="application/rss+xml"/>${items.join('')}</channel></rss>\n`;
}

/** Posts, pages, tag, category and author pages, and active products. */
export async function sitemap(db: Db, base: string): Promise<string> {
  const [posts, products, tags, categories, authors] = await Promise.all([
    db('posts')
      .where({ status: 'published' })
      .orderBy('published_at', 'desc')
      .limit(45_000)
      .select('slug', 'updated_at'),
    db('products').where({ status: 'active' }).orderBy('id').limit(4_000).select('id', 'updated_at'),
    postTags(db),
    postCategories(db),
    authorUsernames(db),
  ]);
  // A tag of punctuation only has no slug, so no page.
  const listings = new Set([
    ...tags.flatMap((tag) => (slugify(tag) ? [`/tag/${slugify(tag)}`] : [])),
    ...categories.map((category) => `/category/${slugify(category)}`),
    ...authors.map((username) => `/author/${encodeURIComponent(username)}`),
  ]);
  const url = (loc: string, lastmod?: Date) =>
    `<url><loc>${xml(loc)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`;
  const pages = ['/', '/blog', '/about', '/shop'].map((p) => url(`${base}${p}`));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
    ...pages,
    ...[...listings].map((p) => url(`${base}${p}`)),
    ...posts.map((p: { slug: string; updated_at: Date }) => url(`${base}/post/${p.slug}`, p.updated_at)),
    ...products.map((p: { id: number; updated_at: Date }) => url(`${base}/product/${p.id}`, p.updated_at)),
  ].join('')}</urlset>\n`;
}
