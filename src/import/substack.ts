import { basename } from 'node:path';
import type { PostStatus } from '../blog/post-schema.ts';
import { htmlToText, PAYWALL_COMMENT } from './content.ts';
import { type CsvRow, csvRows } from './member-list.ts';
import { ImportError, type ImportItem, type ReaderEvent } from './types.ts';
import type { ZipArchive } from './zip.ts';

/*
 * A Substack export (Settings → Exports) is a zip of posts.csv (one row per post: post_id
 * '<id>.<slug>', post_date, is_published, email_sent_at, type, audience, title, subtitle,
 * podcast_url…), posts/<post_id>.html (the body alone, no page around it) and the subscriber
 * list, email_list.<publication>.csv (email, active_subscription, expiry, email_disabled,
 * created_at…). Facts from Ghost's migration tools (TryGhost/migrate: mg-substack,
 * mg-substack-members-csv) and their fixtures.
 */

type Row = Record<string, string>;

const POSTS_COLUMNS = ['post_id', 'post_date', 'is_published', 'type', 'audience', 'title'];

export type SubstackExport = {
  /** The publication's address (https://name.substack.com or its own domain), or '' when the export does not show it. */
  siteUrl: string;
  rows: Row[];
  /** Where posts.csv is: '' at the top of the zip, or the folder it was exported in. */
  prefix: string;
  /** The subscriber list's rows, if the export has one. */
  subscribers: CsvRow[] | null;
};

/** posts.csv at the top of the zip or in one folder: the zip is a Substack export. */
export function substackPostsCsv(zip: ZipArchive): string | null {
  return zip.names.find((name) => /^(?:[^/]+\/)?posts\.csv$/.test(name)) ?? null;
}

function records(csv: string, what: string, required: string[]): CsvRow[] {
  const { columns, rows } = csvRows(csv);
  const missing = required.filter((c) => !columns.includes(c));
  if (missing.length)
    throw new ImportError(
      `${what} has no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''}: it is not a Substack export's. Nothing was imported.`,
    );
  return rows;
}

/** A call to action that leads back to Substack (subscribe, share, leave a comment): its link names the publication. */
const BUTTON = /<p class="button-wrapper"[^>]*>[\s\S]*?<\/p>/g;
/** Who could read a post on Substack (posts.csv's `audience`) → its visibility here; everyone's: none. */
const AUDIENCES: Record<string, ImportItem['visibility']> = { only_free: 'members', only_paid: 'paid' };

/** Substack's paywall in a post's body (the editor's 'paywall' node): the free preview ends there. */
const PAYWALL_MARKER = /<div[^>]*class="paywall-jump"[^>]*>\s*<\/div>/;
const PUBLICATION_LINK = /href="(https?:\/\/[^"/?#]+)\/(?:subscribe|p\/[^"/?#]+\/comments)\b/;

/**
 * Reads posts.csv and the subscriber list (both checked before anything is written) and finds the
 * publication's address: the subscriber list's name, else a button's link.
 */
export async function scanSubstack(zip: ZipArchive, csvName: string): Promise<SubstackExport> {
  const prefix = csvName.slice(0, -'posts.csv'.length);
  const rows = records(await zip.read(csvName), 'posts.csv', POSTS_COLUMNS).map((record) => record.row);
  const subscriberFile =
    zip.names.find(
      (name) => name.startsWith(prefix) && /^email_list[^/]*\.csv$/i.test(name.slice(prefix.length)),
    ) ?? null;
  const listed = subscriberFile && /^email_list\.([a-z0-9-]+)\.csv$/i.exec(basename(subscriberFile));
  let siteUrl = listed ? `https://${listed[1].toLowerCase()}.substack.com` : '';
  for (const row of siteUrl ? [] : rows) {
    const name = `${prefix}posts/${row.post_id}.html`;
    const link = zip.has(name) && PUBLICATION_LINK.exec((await zip.read(name)).match(BUTTON)?.join('') ?? '');
    if (link) {
      siteUrl = link[1].toLowerCase();
      break;
    }
  }
  const subscribers = subscriberFile
    ? records(await zip.read(subscriberFile), 'The subscriber list', ['email'])
    : null;
  return { siteUrl, rows, prefix, subscribers };
}

const timestamp = (value: string) => {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date : null;
};

/** Each row of posts.csv, oldest first, as an import item; threads and rows without their HTML are skipped. */
export async function* readSubstack(zip: ZipArchive, scan: SubstackExport): AsyncGenerator<ReaderEvent> {
  const rows = [...scan.rows].sort(
    (a, b) => (timestamp(a.post_date)?.getTime() ?? 0) - (timestamp(b.post_date)?.getTime() ?? 0),
  );
  for (const row of rows) {
    const [, id = row.post_id, slug = ''] = /^(\d+)\.(.*)$/.exec(row.post_id) ?? [];
    const title = row.title;
    const type = row.type.toLowerCase();
    if (type === 'thread') {
      yield { type: 'skip', sourceId: id, title, reason: 'a Substack thread (a discussion, not a post)' };
      continue;
    }
    const file = `${scan.prefix}posts/${row.post_id}.html`;
    if (!zip.has(file)) {
      yield { type: 'skip', sourceId: id, title, reason: 'no HTML file in the export' };
      continue;
    }
    const warnings: string[] = [];
    const status: PostStatus = row.is_published.toLowerCase() === 'true' ? 'published' : 'draft';
    // A gated post keeps its status: subscribers-only posts are for members here, paid ones for paying members.
    const visibility = AUDIENCES[row.audience.toLowerCase()];
    let html = (await zip.read(file)).replace(BUTTON, '').replace(PAYWALL_MARKER, PAYWALL_COMMENT);
    if (/^https?:\/\//.test(row.podcast_url ?? ''))
      html = `<audio src="${row.podcast_url.replace(/"/g, '&quot;')}"></audio>\n${html}`;
    const kind = type === 'page' ? 'page' : 'post';
    yield {
      type: 'item',
      item: {
        sourceSystem: 'substack',
        sourceId: id,
        kind,
        title,
        slug,
        status,
        date: timestamp(row.post_date),
        html,
        excerpt: htmlToText(row.subtitle ?? ''),
        authorName: null,
        // Pages and podcast episodes are placed by the mapping like other systems' pages and podcasts.
        categories: kind === 'page' ? ['Pages'] : type === 'podcast' ? ['Podcasts'] : [],
        tags: [],
        featuredImage: null,
        featured: false,
        comments: [],
        oldPaths: slug ? [`/p/${slug}`] : [],
        visibility,
        warnings,
      },
    };
  }
}
