import { readFile, stat } from 'node:fs/promises';
import type { PostStatus } from '../blog/post-schema.ts';
import { htmlToText, PAYWALL_COMMENT } from './content.ts';
import { lexicalToHtml, MEMBERS_ONLY, mobiledocToHtml } from './ghost-render.ts';
import { ImportError, type ImportItem, type ReaderEvent } from './types.ts';

/** Ghost writes its export as one JSON document, so it is read whole: within this cap. */
export const MAX_JSON_BYTES = 200 * 1024 * 1024;

type Row = Record<string, unknown>;
type GhostData = {
  posts: Row[];
  tags?: Row[];
  posts_tags?: Row[];
  users?: Row[];
  posts_authors?: Row[];
  settings?: Row[];
  /** Ghost's tiers (`products`) and the ones a 'tiers' post is for. */
  products?: Row[];
  posts_products?: Row[];
};

const NOT_GHOST = 'The file is JSON but not a Ghost export: it has no db[0].data.posts list.';

/** Reads and checks a JSON export file (size cap, syntax); the parsed document. */
export async function readJsonFile(path: string): Promise<unknown> {
  const { size } = await stat(path);
  if (size > MAX_JSON_BYTES)
    throw new ImportError(
      `The file is ${Math.round(size / 1024 / 1024)} MB; JSON exports over ${MAX_JSON_BYTES / 1024 / 1024} MB are refused.`,
    );
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new ImportError(`The file is not valid JSON: ${(error as Error).message}. Nothing was imported.`);
  }
}

/** The data part of a Ghost export (1.x–6.x: { db: [{ meta, data }] }; some tools write { meta, data }). */
export function ghostData(document: unknown): GhostData | null {
  const doc = document as { db?: { data?: GhostData }[]; data?: GhostData } | null;
  const data = Array.isArray(doc?.db) ? doc.db[0]?.data : doc?.data;
  return data && Array.isArray(data.posts) ? data : null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The exporting site's identity from its settings: its uuid (Ghost 5+), else its URL; '' for neither. */
export function ghostSite(document: unknown): string {
  const settings = ghostData(document)?.settings ?? [];
  const value = (key: string) => text(settings.find((row) => row.key === key)?.value).trim();
  const uuid = value('site_uuid');
  return uuid ? `uuid:${uuid}` : value('url');
}

/** Ghost stores UTC as 'YYYY-MM-DD HH:MM:SS' (SQLite, MySQL) or ISO; older exports as epoch ms. */
function utc(value: unknown): Date | null {
  if (typeof value === 'number') return new Date(value);
  const s = text(value);
  if (!s) return null;
  const date = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(s) ? s : `${s.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The body from the editor document when the export has no `html`; '' when there is none or it is unreadable. */
function editorHtml(post: Row, warnings: string[]): string {
  const [name, render] = text(post.lexical)
    ? ['Lexical', () => lexicalToHtml(text(post.lexical), warnings)]
    : ['Mobiledoc', () => mobiledocToHtml(text(post.mobiledoc), warnings)];
  if (!text(post.lexical) && !text(post.mobiledoc)) return '';
  try {
    return render();
  } catch {
    warnings.push(`its ${name} document could not be read`);
    return '';
  }
}

/** Who could read a post on Ghost → its visibility here; 'public': none. */
const VISIBILITIES: Record<string, ImportItem['visibility']> = {
  members: 'members',
  paid: 'paid',
  tiers: 'paid',
};

const STATUSES: Record<string, PostStatus> = {
  published: 'published',
  scheduled: 'scheduled',
  draft: 'draft',
};

/** Each post and page of a Ghost export as an import item. */
export function* readGhost(document: unknown): Generator<ReaderEvent> {
  const data = ghostData(document);
  if (!data) throw new ImportError(NOT_GHOST);
  const tags = new Map((data.tags ?? []).map((t) => [text(t.id), t]));
  const users = new Map((data.users ?? []).map((u) => [text(u.id), text(u.name)]));
  const byPost = <T>(rows: Row[] | undefined, pick: (row: Row) => T) => {
    const map = new Map<string, T[]>();
    const sorted = [...(rows ?? [])].sort((a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0));
    for (const row of sorted) map.set(text(row.post_id), [...(map.get(text(row.post_id)) ?? []), pick(row)]);
    return map;
  };
  const postTags = byPost(data.posts_tags, (r) => tags.get(text(r.tag_id)));
  const postAuthors = byPost(data.posts_authors, (r) => users.get(text(r.author_id)) ?? '');
  const tiers = new Map((data.products ?? []).map((p) => [text(p.id), p]));
  const postTiers = byPost(data.posts_products, (r) => tiers.get(text(r.product_id)));
  for (const post of data.posts) {
    const id = text(post.id) || String(post.id);
    const title = text(post.title);
    const status = STATUSES[text(post.status)];
    if (!status) {
      yield { type: 'skip', sourceId: id, title, reason: `status ${text(post.status) || 'missing'}` };
      continue;
    }
    const warnings: string[] = [];
    let html = text(post.html);
    if (!html) html = editorHtml(post, warnings);
    if (!html && text(post.plaintext)) {
      html = text(post.plaintext)
        .split(/\n\s*\n/)
        .map((p) => `<p>${p.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</p>`)
        .join('');
      warnings.push('no HTML body in the export: imported from its plain text');
    }
    let visibility = VISIBILITIES[text(post.visibility)];
    if (visibility) html = html.replace(MEMBERS_ONLY, PAYWALL_COMMENT);
    const listed = (postTiers.get(id) ?? []).filter((t): t is Row => !!t);
    if (text(post.visibility) === 'tiers' && listed.length) {
      // Penstand's paid posts are for any paying member: a post for some tiers is for all of them
      // here; one that Ghost's free tier could read is for every member.
      if (listed.some((t) => text(t.type) === 'free')) visibility = 'members';
      warnings.push(
        `for the tiers ${listed.map((t) => text(t.name)).join(', ')} on Ghost: imported for ${visibility === 'members' ? 'every member' : 'paying members of any tier'}`,
      );
    }
    const publicTags = (postTags.get(id) ?? []).filter(
      (t): t is Row => !!t && text(t.visibility) !== 'internal' && !text(t.name).startsWith('#'),
    );
    const tagNames = publicTags.map((t) => text(t.name));
    const slug = text(post.slug);
    const author = postAuthors.get(id)?.[0] || users.get(text(post.author_id)) || null;
    const kind = post.type === 'page' || post.page === true || post.page === 1 ? 'page' : 'post';
    yield {
      type: 'item',
      item: {
        sourceSystem: 'ghost',
        sourceId: id,
        kind,
        title,
        slug,
        status,
        date: utc(post.published_at) ?? utc(post.created_at),
        html: html.replaceAll('__GHOST_URL__', ''),
        excerpt: htmlToText(text(post.custom_excerpt)),
        authorName: author,
        // Pages are placed by the mapping as 'Pages', like WordPress pages.
        categories: kind === 'page' ? ['Pages'] : tagNames.slice(0, 1),
        tags: tagNames,
        // __GHOST_URL__ stands for the old site's address: the path is kept, relative to this site.
        featuredImage: text(post.feature_image).replace(/^__GHOST_URL__/, '') || null,
        featured: post.featured === true || post.featured === 1 || post.featured === '1',
        comments: [],
        oldPaths: slug ? [`/${slug}/`] : [],
        visibility,
        warnings,
      },
    };
  }
}
