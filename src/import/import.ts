import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Knex } from 'knex';
import type Stripe from 'stripe';
import { renderMarkdown } from '../blog/markdown.ts';
import { previewColumns, withoutPaywallLine } from '../blog/paywall.ts';
import { schedulePublish, uniqueSlug } from '../blog/post-editor.ts';
import { normalizeTags, POST_CATEGORIES } from '../blog/post-schema.ts';
import { oldPathKey } from '../blog/posts.ts';
import { preview } from '../blog/reading.ts';
import type { Config } from '../config.ts';
import { DEFAULT_CURRENCY } from '../currency.ts';
import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';
import type { UploadStorage } from '../media/storage.ts';
import { emptyNotes, htmlToMarkdown, htmlToText, PAYWALL_COMMENT } from './content.ts';
import { ghostData, ghostSite, readGhost, readJsonFile } from './ghost.ts';
import { createImageCopier } from './images.ts';
import { mediumPostFiles, mediumSite, readMedium } from './medium.ts';
import {
  type CsvRow,
  importMemberList,
  isMemberListHeader,
  memberRows,
  readMemberList,
  type SubscriberImport,
} from './member-list.ts';
import { importMembers, type MemberImport } from './members.ts';
import { importPenstand, isPenstandExport, type PenstandExport } from './penstand.ts';
import { readSubstack, scanSubstack, substackPostsCsv } from './substack.ts';
import { ImportError, type ImportItem, type ReaderEvent } from './types.ts';
import { detach, readWxr, scanWxr } from './wxr.ts';
import { openZip } from './zip.ts';

export type ImportOptions = {
  dryRun?: boolean;
  /** Old category name (case-insensitive) → Penstand category; unmapped ones fall to defaultCategory. */
  categoryMap?: Record<string, string>;
  defaultCategory?: string;
  /** Copy the old site's images into this site's storage and point the posts at the copies. */
  fetchImages?: boolean;
  onProgress?: (done: number, total: number) => void;
};

export type ImportReport = {
  format: 'wordpress' | 'ghost' | 'substack' | 'medium' | 'penstand' | 'members';
  dryRun: boolean;
  /** Items (posts, pages and everything else) in the file. */
  total: number;
  /**
   * What the importable items are, for the admin screen's preview: drafts among them (drafts on
   * the old site, and posts imported as drafts), members' posts (for signed-in members there) and
   * paid posts (only for paying subscribers there).
   */
  contents: { posts: number; pages: number; tags: number; drafts?: number; members?: number; paid?: number };
  created: number;
  updated: number;
  unchanged: number;
  skipped: { sourceId: string; title: string; reason: string }[];
  comments: { created: number; unchanged: number };
  /** Old category (the one that decided) → the Penstand category its posts got, for the writer to confirm. */
  categories: Record<string, { category: string; posts: number }>;
  /** A Penstand export also brings the shop and the newsletter. */
  restored?: { products: number; subscribers: number; members: number; orders: number; discounts: number };
  /** A Substack export's subscriber list, or a member list of its own, as newsletter subscribers. */
  subscribers?: Omit<SubscriberImport, 'invalid'> & { invalid: number };
  /** The same list's readers as members: accounts, comps, paid members linked to Stripe. */
  members?: MemberImport;
  warnings: string[];
};

/** Rolls the dry run's single transaction back once its counts are known. */
class DryRunDone extends Error {}

async function detectFormat(path: string): Promise<'xml' | 'json' | 'zip' | 'csv'> {
  const handle = await open(path, 'r').catch(() => {
    throw new ImportError(`The file ${path} cannot be read.`);
  });
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    // A zip's local file header, or the end record of an empty zip.
    if (bytesRead >= 4 && ['504b0304', '504b0506'].includes(buffer.toString('hex', 0, 4))) return 'zip';
    const head = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (bytesRead === 0) throw new ImportError('The file is empty (0 bytes). Nothing was imported.');
    if (head.startsWith('<')) return 'xml';
    if (head.startsWith('{')) return 'json';
    if (isMemberListHeader(head.split(/\r?\n/, 1)[0])) return 'csv';
    throw new ImportError(
      'The file is neither a WordPress export (XML), a Ghost export (JSON), a Substack or Medium export (zip) nor a member list (CSV with an email column). Nothing was imported.',
    );
  } finally {
    await handle.close();
  }
}

/** The Penstand category of an item, and the old category that decided it. */
function categoryFor(item: ImportItem, options: ImportOptions): { category: string; from: string } {
  const known = new Map<string, string>(POST_CATEGORIES.map((c) => [c.toLowerCase(), c]));
  const mapped = new Map(Object.entries(options.categoryMap ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  for (const name of item.categories) {
    const hit = mapped.get(name.toLowerCase()) ?? known.get(name.toLowerCase());
    if (hit) return { category: hit, from: name };
  }
  return { category: options.defaultCategory ?? 'Technology', from: item.categories[0] ?? '(none)' };
}

/** A mapping onto a category this site does not have is refused before anything is read. */
function checkCategories(options: ImportOptions): void {
  const targets = [...Object.values(options.categoryMap ?? {}), options.defaultCategory ?? 'Technology'];
  const unknown = targets.find((c) => !(POST_CATEGORIES as readonly string[]).includes(c));
  if (unknown !== undefined)
    throw new ImportError(`Unknown category '${unknown}': choose one of ${POST_CATEGORIES.join(', ')}.`);
}

/** The body's rendered columns; a members' or paid post also stores its public preview. */
function bodyColumns(content: string, visibility: ImportItem['visibility']) {
  return {
    content,
    content_html: renderMarkdown(withoutPaywallLine(content)),
    ...(visibility && previewColumns(content, visibility)),
  };
}

function columnsOf(item: ImportItem, options: ImportOptions, report: ImportReport) {
  const { warnings } = report;
  const notes = emptyNotes();
  const [free, ...rest] = item.visibility ? item.html.split(PAYWALL_COMMENT) : [item.html];
  const content = rest.length
    ? `${htmlToMarkdown(free, notes)}\n\n[paywall]\n\n${htmlToMarkdown(rest.join(''), notes, item.footnotes)}`
    : htmlToMarkdown(item.html, notes, item.footnotes);
  const where = `${item.kind} ${item.sourceId} (${item.slug || item.title})`;
  const warn = (text: string) => warnings.push(detach(text));
  for (const warning of item.warnings) warn(`${where}: ${warning}`);
  for (const name of notes.shortcodes) warn(`${where}: unknown shortcode [${name}] kept as text`);
  if (notes.keptHtml)
    warn(`${where}: ${notes.keptHtml} block(s) kept as HTML (merged table cells, galleries)`);
  const unreferenced = (item.footnotes ?? []).filter((note) => !notes.footnotes.includes(note.id)).length;
  if (unreferenced) warn(`${where}: ${unreferenced} footnote(s) the body does not refer to left out`);
  const missing = notes.footnotes.filter((id) => !item.footnotes?.some((note) => note.id === id)).length;
  if (missing) warn(`${where}: ${missing} footnote marker(s) without their note`);
  if (notes.droppedFrames)
    warn(`${where}: ${notes.droppedFrames} embedded frame(s) other than YouTube dropped`);
  const title = item.title.trim() || 'Untitled';
  if (!item.title.trim()) warn(`${where}: no title, imported as 'Untitled'`);
  const { category, from } = categoryFor(item, options);
  report.categories[from] ??= { category, posts: 0 };
  report.categories[from].posts++;
  const excerpt = item.excerpt || preview(htmlToText(item.html).replace(/\n/g, ' '), 200) || title;
  return {
    title,
    ...bodyColumns(content, item.visibility),
    excerpt,
    category,
    tags: normalizeTags(item.tags),
    featured_image: item.featuredImage,
    featured_image_file: null as string | null,
    status: item.status,
    publish_at: item.status === 'scheduled' ? item.date : null,
    published_at: item.status === 'published' ? item.date : null,
    author_name: item.authorName,
    featured: item.featured,
    // Only a gated post sets its visibility: a re-import leaves the visibility a writer chose here.
    ...(item.visibility && { visibility: item.visibility }),
  };
}

type Columns = ReturnType<typeof columnsOf>;

function sameAs(row: Record<string, unknown>, columns: Columns): boolean {
  return Object.entries(columns).every(([key, value]) => {
    const stored = row[key];
    if (value instanceof Date || stored instanceof Date)
      return new Date(stored as Date).getTime() === new Date(value as Date).getTime();
    return JSON.stringify(stored ?? null) === JSON.stringify(value ?? null);
  });
}

type Outcome = 'created' | 'updated' | 'unchanged';

/** One item in the caller's transaction: the post, its comments and its old addresses. */
async function importItem(
  trx: Knex.Transaction,
  item: ImportItem,
  site: string,
  columns: Columns,
  report: ImportReport,
): Promise<{ outcome: Outcome; id: number; status: string; publishAt: Date | null }> {
  const source = { source_system: item.sourceSystem, source_site: site, source_id: item.sourceId };
  const existing = (await trx('posts').where(source).first()) ?? (await claimUnsitedPost(trx, item, site));
  let id: number;
  let outcome: Outcome;
  if (!existing) {
    const slug = await uniqueSlug(trx, item.slug || item.title, null);
    if (item.slug && slug !== item.slug)
      report.warnings.push(
        detach(
          `${item.kind} ${item.sourceId}: slug ${item.slug} imported as ${slug} (taken, or not a plain slug)`,
        ),
      );
    const at = item.date ?? new Date();
    [{ id }] = await trx('posts')
      .insert({ ...columns, ...source, slug, created_at: at, updated_at: at })
      .returning('id');
    outcome = 'created';
  } else {
    id = existing.id;
    outcome = sameAs(existing, columns) ? 'unchanged' : 'updated';
    if (outcome === 'updated')
      await trx('posts')
        .where({ id })
        .update({ ...columns, updated_at: trx.fn.now() });
  }
  for (const comment of item.comments) {
    const commentSource = {
      source_system: item.sourceSystem,
      source_site: site,
      source_id: comment.sourceId,
    };
    // A comment imported before sites were told apart is this site's when it is on this post.
    const unsited = await trx('comments')
      .where({ ...commentSource, source_site: '', post_id: id })
      .update({ source_site: site });
    if (unsited || (await trx('comments').where(commentSource).first('id'))) {
      report.comments.unchanged++;
      continue;
    }
    await trx('comments').insert({
      ...commentSource,
      post_id: id,
      author: comment.author,
      email: comment.email,
      content: htmlToText(comment.html),
      approved: true,
      created_at: comment.date,
      updated_at: comment.date,
    });
    report.comments.created++;
  }
  const keys = [...new Set(item.oldPaths.map(oldPathKey))].filter((key) => key !== '/');
  // An old address that already leads to another post (another site's, with the same path) keeps
  // leading there: said in the report, never silently taken over.
  for (const clash of keys.length
    ? await trx('post_slug_history').whereIn('slug', keys).whereNot('post_id', id).select('slug', 'post_id')
    : [])
    report.warnings.push(
      detach(
        `${item.kind} ${item.sourceId}: the old address ${clash.slug} already leads to post ${clash.post_id}; it stays there and does not lead to this one`,
      ),
    );
  if (keys.length)
    await trx('post_slug_history')
      .insert(keys.map((slug) => ({ slug, post_id: id })))
      .onConflict('slug')
      .ignore();
  return { outcome, id, status: columns.status, publishAt: columns.publish_at };
}

/**
 * A post imported before sites were told apart (empty source_site) with this id is this site's
 * when it also has this title or slug: it is claimed, keyed by this site from now on. Another
 * site's post that only shares the id is not.
 */
async function claimUnsitedPost(trx: Knex.Transaction, item: ImportItem, site: string) {
  if (!site) return undefined;
  const unsited = await trx('posts')
    .where({ source_system: item.sourceSystem, source_site: '', source_id: item.sourceId })
    .where((q) => q.where('title', item.title.trim() || 'Untitled').orWhere('slug', item.slug))
    .first();
  if (!unsited) return undefined;
  await trx('posts').where({ id: unsited.id }).update({ source_site: site });
  return unsited;
}

/**
 * Which site an export came from, as part of every imported row's key: its address without the
 * scheme (`example.com/blog`), Ghost's site uuid, or the file's name when the export names neither.
 */
export function sourceSiteKey(declared: string, path: string): string {
  if (declared.startsWith('uuid:')) return declared;
  try {
    const url = new URL(declared);
    return `${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return `file:${basename(path)}`;
  }
}

type Reader = {
  format: 'wordpress' | 'ghost' | 'substack' | 'medium' | 'members';
  /** The source site's key (sourceSiteKey). */
  site: string;
  total: number;
  events: AsyncIterable<ReaderEvent> | Iterable<ReaderEvent>;
  /** The export's subscriber list, imported after the posts (in the dry run's transaction too). */
  subscribers?: CsvRow[];
  /** Releases the open file (a zip). */
  close?: () => void;
};

const NEITHER_ZIP =
  'The zip is neither a Substack export (posts.csv and posts/) nor a Medium export (posts/*.html). Nothing was imported.';

/** A Substack or Medium export, told apart by their files. */
async function zipReader(path: string): Promise<Reader> {
  const zip = await openZip(path);
  try {
    const postsCsv = substackPostsCsv(zip);
    if (postsCsv) {
      const scan = await scanSubstack(zip, postsCsv);
      return {
        format: 'substack',
        site: sourceSiteKey(scan.siteUrl, path),
        total: scan.rows.length,
        events: readSubstack(zip, scan),
        subscribers: scan.subscribers ?? undefined,
        close: () => zip.close(),
      };
    }
    const files = mediumPostFiles(zip);
    if (!files.length) throw new ImportError(NEITHER_ZIP);
    return {
      format: 'medium',
      site: sourceSiteKey(await mediumSite(zip, files), path),
      total: files.length,
      events: readMedium(zip, files),
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function readerFor(path: string): Promise<Reader | { format: 'penstand'; document: PenstandExport }> {
  const kind = await detectFormat(path);
  if (kind === 'zip') return zipReader(path);
  if (kind === 'csv') {
    const list = await readMemberList(path);
    return {
      format: 'members',
      site: sourceSiteKey('', path),
      total: list.length,
      events: [],
      subscribers: list,
    };
  }
  if (kind === 'xml') {
    const index = await scanWxr(path);
    return {
      format: 'wordpress',
      site: sourceSiteKey(index.siteUrl, path),
      total: index.total,
      events: readWxr(path, index),
    };
  }
  const document = await readJsonFile(path);
  if (isPenstandExport(document)) return { format: 'penstand', document };
  const total = ghostData(document)?.posts.length ?? 0;
  return {
    format: 'ghost',
    site: sourceSiteKey(ghostSite(document), path),
    total,
    events: readGhost(document),
  };
}

/**
 * Imports a WordPress (WXR), Ghost (JSON), Substack or Medium (zip) or Penstand (JSON, into an
 * empty site) export file: the one entry point of the CLI and the job. The whole file is checked
 * before anything is written (of a zip: its directory and CSVs); each item is then its own
 * transaction (a dry run uses one, rolled back). Idempotent: items are found again by source id.
 */
export async function runImport(
  services: {
    db: Db;
    queues?: Queues;
    uploads?: UploadStorage;
    pageCache?: { invalidate(): void };
    config?: Pick<Config, 'importAllowedAddresses'> & Partial<Pick<Config, 'currency'>>;
    /** Links a member list's paying members to their subscriptions; without it they stay free. */
    stripe?: Stripe;
  },
  path: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  checkCategories(options);
  const reader = await readerFor(path);
  if (reader.format === 'penstand') {
    const counts = await importPenstand(services.db, reader.document, !!options.dryRun);
    if (!options.dryRun) services.pageCache?.invalidate();
    return {
      format: 'penstand',
      dryRun: !!options.dryRun,
      total: counts.posts,
      contents: { posts: counts.posts, pages: 0, tags: reader.document.tags.length },
      created: counts.posts,
      updated: 0,
      unchanged: 0,
      skipped: [],
      comments: { created: counts.comments, unchanged: 0 },
      categories: {},
      restored: {
        products: counts.products,
        subscribers: counts.subscribers,
        members: counts.members,
        orders: counts.orders,
        discounts: counts.discounts,
      },
      warnings: [],
    };
  }
  try {
    return await importItems(services, reader, options);
  } finally {
    reader.close?.();
  }
}

async function importItems(
  services: Parameters<typeof runImport>[0],
  reader: Reader,
  options: ImportOptions,
): Promise<ImportReport> {
  const { format, site, total, events } = reader;
  const report: ImportReport = {
    format,
    dryRun: !!options.dryRun,
    total,
    contents: { posts: 0, pages: 0, tags: 0, drafts: 0, members: 0, paid: 0 },
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: [],
    comments: { created: 0, unchanged: 0 },
    categories: {},
    warnings: [],
  };
  const scheduled: { id: number; status: 'scheduled'; publishAt: string }[] = [];
  if (options.fetchImages && options.dryRun) report.warnings.push('a dry run copies no images');
  const copier =
    options.fetchImages && !options.dryRun && services.uploads
      ? createImageCopier(
          { uploads: services.uploads, queues: services.queues },
          (text) => report.warnings.push(detach(text)),
          services.config?.importAllowedAddresses,
        )
      : null;
  const tags = new Set<string>();
  const importAll = async (
    inTransaction: (work: (trx: Knex.Transaction) => Promise<void>) => Promise<void>,
  ) => {
    let done = 0;
    for await (const event of events) {
      if (event.type === 'skip')
        report.skipped.push({
          sourceId: detach(event.sourceId),
          title: detach(event.title),
          reason: detach(event.reason),
        });
      else {
        // Images are fetched before the item's transaction opens: no transaction waits on the network.
        let columns = columnsOf(event.item, options, report);
        const { contents } = report;
        contents[event.item.kind === 'page' ? 'pages' : 'posts']++;
        if (columns.status === 'draft') contents.drafts = (contents.drafts ?? 0) + 1;
        if (event.item.visibility)
          contents[event.item.visibility] = (contents[event.item.visibility] ?? 0) + 1;
        for (const tag of columns.tags) tags.add(tag);
        report.contents.tags = tags.size;
        if (copier) {
          const content = await copier.rewrite(columns.content);
          const featured = columns.featured_image && (await copier.localize(columns.featured_image));
          columns = {
            ...columns,
            ...bodyColumns(content, event.item.visibility),
            featured_image_file: featured || null,
          };
        }
        await inTransaction(async (trx) => {
          const result = await importItem(trx, event.item, site, columns, report);
          report[result.outcome]++;
          if (result.status === 'scheduled' && result.publishAt && result.outcome !== 'unchanged')
            scheduled.push({ id: result.id, status: 'scheduled', publishAt: result.publishAt.toISOString() });
        });
      }
      options.onProgress?.(++done, total);
    }
  };
  if (options.dryRun) {
    await services.db
      .transaction(async (trx) => {
        await importAll((work) => work(trx));
        await importSubscribers(services, reader, trx, report);
        throw new DryRunDone();
      })
      .catch((error) => {
        if (!(error instanceof DryRunDone)) throw error;
      });
    return report;
  }
  await importAll((work) => services.db.transaction(work));
  await importSubscribers(services, reader, services.db, report);
  // Stored pages (the home page, lists, a '/?p=' that was not a post yet) show the old content.
  if (report.created || report.updated || report.comments.created) services.pageCache?.invalidate();
  if (services.queues) for (const post of scheduled) await schedulePublish(services.queues, post);
  else if (scheduled.length)
    report.warnings.push(`${scheduled.length} scheduled post(s): they publish when the worker next starts`);
  return report;
}

/**
 * The export's subscribers (Substack's list) or a member list become confirmed newsletter
 * subscribers (they opted in there) and members.
 */
async function importSubscribers(
  services: Parameters<typeof runImport>[0],
  reader: Reader,
  db: Knex,
  report: ImportReport,
): Promise<void> {
  if (!reader.subscribers) return;
  const { invalid, ...counts } = await importMemberList(db, reader.subscribers);
  report.subscribers = { ...counts, invalid: invalid.length };
  for (const { line, value } of invalid)
    report.warnings.push(
      detach(`subscriber list line ${line}: '${value}' is not an email address, left out`),
    );
  const { members, warnings } = await importMembers(db, memberRows(reader.subscribers), {
    stripe: services.stripe,
    currency: services.config?.currency ?? DEFAULT_CURRENCY,
    dryRun: report.dryRun,
  });
  report.members = members;
  for (const warning of warnings) report.warnings.push(detach(warning));
}
