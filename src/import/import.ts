import { open } from 'node:fs/promises';
import type { Knex } from 'knex';
import { renderMarkdown } from '../blog/markdown.ts';
import { schedulePublish, uniqueSlug } from '../blog/post-editor.ts';
import { normalizeTags, POST_CATEGORIES } from '../blog/post-schema.ts';
import { oldPathKey } from '../blog/posts.ts';
import { preview } from '../blog/reading.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';
import type { UploadStorage } from '../media/storage.ts';
import { emptyNotes, htmlToMarkdown, htmlToText } from './content.ts';
import { ghostData, readGhost, readJsonFile } from './ghost.ts';
import { createImageCopier } from './images.ts';
import { importPenstand, isPenstandExport, type PenstandExport } from './penstand.ts';
import { ImportError, type ImportItem, type ReaderEvent } from './types.ts';
import { detach, readWxr, scanWxr } from './wxr.ts';

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
  format: 'wordpress' | 'ghost' | 'penstand';
  dryRun: boolean;
  /** Items (posts, pages and everything else) in the file. */
  total: number;
  /** What the importable items are, for the admin screen's preview. */
  contents: { posts: number; pages: number; tags: number };
  created: number;
  updated: number;
  unchanged: number;
  skipped: { sourceId: string; title: string; reason: string }[];
  comments: { created: number; unchanged: number };
  /** Old category (the one that decided) → the Penstand category its posts got, for the writer to confirm. */
  categories: Record<string, { category: string; posts: number }>;
  /** A Penstand export also brings the shop and the newsletter. */
  restored?: { products: number; subscribers: number; orders: number };
  warnings: string[];
};

/** Rolls the dry run's single transaction back once its counts are known. */
class DryRunDone extends Error {}

async function detectFormat(path: string): Promise<'xml' | 'json'> {
  const handle = await open(path, 'r').catch(() => {
    throw new ImportError(`The file ${path} cannot be read.`);
  });
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    const head = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (bytesRead === 0) throw new ImportError('The file is empty (0 bytes). Nothing was imported.');
    if (head.startsWith('<')) return 'xml';
    if (head.startsWith('{')) return 'json';
    throw new ImportError(
      'The file is neither a WordPress export (XML) nor a Ghost export (JSON). Nothing was imported.',
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

function columnsOf(item: ImportItem, options: ImportOptions, report: ImportReport) {
  const { warnings } = report;
  const notes = emptyNotes();
  const content = htmlToMarkdown(item.html, notes);
  const where = `${item.kind} ${item.sourceId} (${item.slug || item.title})`;
  const warn = (text: string) => warnings.push(detach(text));
  for (const warning of item.warnings) warn(`${where}: ${warning}`);
  for (const name of notes.shortcodes) warn(`${where}: unknown shortcode [${name}] kept as text`);
  if (notes.keptHtml)
    warn(`${where}: ${notes.keptHtml} block(s) kept as HTML (merged table cells, galleries)`);
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
    content,
    content_html: renderMarkdown(content),
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
  columns: Columns,
  report: ImportReport,
): Promise<{ outcome: Outcome; id: number; status: string; publishAt: Date | null }> {
  const source = { source_system: item.sourceSystem, source_id: item.sourceId };
  const existing = await trx('posts').where(source).first();
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
    const commentSource = { source_system: item.sourceSystem, source_id: comment.sourceId };
    if (await trx('comments').where(commentSource).first('id')) {
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
  if (keys.length)
    await trx('post_slug_history')
      .insert(keys.map((slug) => ({ slug, post_id: id })))
      .onConflict('slug')
      .ignore();
  return { outcome, id, status: columns.status, publishAt: columns.publish_at };
}

type Reader = {
  format: 'wordpress' | 'ghost';
  total: number;
  events: AsyncIterable<ReaderEvent> | Iterable<ReaderEvent>;
};

async function readerFor(path: string): Promise<Reader | { format: 'penstand'; document: PenstandExport }> {
  if ((await detectFormat(path)) === 'xml') {
    const index = await scanWxr(path);
    return { format: 'wordpress', total: index.total, events: readWxr(path, index) };
  }
  const document = await readJsonFile(path);
  if (isPenstandExport(document)) return { format: 'penstand', document };
  const total = ghostData(document)?.posts.length ?? 0;
  return { format: 'ghost', total, events: readGhost(document) };
}

/**
 * Imports a WordPress (WXR), Ghost (JSON) or Penstand (JSON, into an empty site) export file: the
 * one entry point of the CLI and the job. The whole file is checked before anything is written; each item is then its own
 * transaction (a dry run uses one, rolled back). Idempotent: items are found again by source id.
 */
export async function runImport(
  services: {
    db: Db;
    queues?: Queues;
    uploads?: UploadStorage;
    pageCache?: { invalidate(): void };
    config?: Pick<Config, 'importAllowedAddresses'>;
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
      restored: { products: counts.products, subscribers: counts.subscribers, orders: counts.orders },
      warnings: [],
    };
  }
  const { format, total, events } = reader;
  const report: ImportReport = {
    format,
    dryRun: !!options.dryRun,
    total,
    contents: { posts: 0, pages: 0, tags: 0 },
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
        report.contents[event.item.kind === 'page' ? 'pages' : 'posts']++;
        for (const tag of columns.tags) tags.add(tag);
        report.contents.tags = tags.size;
        if (copier) {
          const content = await copier.rewrite(columns.content);
          const featured = columns.featured_image && (await copier.localize(columns.featured_image));
          columns = {
            ...columns,
            content,
            content_html: renderMarkdown(content),
            featured_image_file: featured || null,
          };
        }
        await inTransaction(async (trx) => {
          const result = await importItem(trx, event.item, columns, report);
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
        throw new DryRunDone();
      })
      .catch((error) => {
        if (!(error instanceof DryRunDone)) throw error;
      });
    return report;
  }
  await importAll((work) => services.db.transaction(work));
  // Stored pages (the home page, lists, a '/?p=' that was not a post yet) show the old content.
  if (report.created || report.updated || report.comments.created) services.pageCache?.invalidate();
  if (services.queues) for (const post of scheduled) await schedulePublish(services.queues, post);
  else if (scheduled.length)
    report.warnings.push(`${scheduled.length} scheduled post(s): they publish when the worker next starts`);
  return report;
}
