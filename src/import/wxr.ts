import { createReadStream } from 'node:fs';
import sax from 'sax';
import type { PostStatus } from '../blog/post-schema.ts';
import { htmlToText } from './content.ts';
import { type ImportComment, ImportError, type ReaderEvent } from './types.ts';

type Node = { name: string; attributes: Record<string, string>; text: string; children: Node[] };

const NOT_WXR =
  'The file is not a WordPress export (WXR): its root element must be <rss> with WordPress data.';

/**
 * Streams a file through sax and hands over each <item> (with its children) and each channel-level
 * element as it closes: one item at a time is held, never the file.
 */
async function* elements(path: string): AsyncGenerator<{ node: Node; inItem: boolean }> {
  const parser = sax.parser(true, { trim: false, normalize: false });
  const stack: Node[] = [];
  const done: { node: Node; inItem: boolean }[] = [];
  let sawRoot = false;
  let failure: Error | null = null;
  parser.onerror = (error) => {
    failure ??= error;
  };
  parser.onopentag = (tag) => {
    if (!sawRoot) {
      sawRoot = true;
      if (tag.name !== 'rss') throw new ImportError(NOT_WXR);
    }
    stack.push({
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      text: '',
      children: [],
    });
  };
  const addText = (text: string) => {
    const top = stack.at(-1);
    if (top) top.text += text;
  };
  parser.ontext = addText;
  parser.oncdata = addText;
  parser.onclosetag = () => {
    const node = stack.pop() as Node;
    const parent = stack.at(-1);
    const itemIndex = stack.findIndex((n) => n.name === 'item');
    // Items and the channel's own elements are handed over; nothing accumulates on the channel.
    if (node.name === 'item' && itemIndex === -1) done.push({ node, inItem: true });
    else if (parent?.name === 'channel') done.push({ node, inItem: false });
    else parent?.children.push(node);
  };
  const fail = (error: Error): never => {
    if (error instanceof ImportError) throw error;
    const line = /Line: (\d+)/.exec(error.message)?.[1];
    const reason = error.message.split('\n')[0];
    throw new ImportError(
      `The file is not valid XML${line ? ` (line ${Number(line) + 1})` : ''}: ${reason}. Nothing was imported.`,
    );
  };
  try {
    for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
      parser.write(chunk as string);
      if (failure) fail(failure);
      yield* done.splice(0);
    }
    parser.close();
  } catch (error) {
    fail(error as Error);
  }
  if (failure) fail(failure);
  if (!sawRoot) throw new ImportError(NOT_WXR);
  yield* done.splice(0);
}

/**
 * A copy of a string that owns its characters: sax's text is sliced from the 256 KB chunk it
 * came in, and a slice kept for long (a lookup, the report) keeps the whole chunk alive.
 */
export function detach(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

const child = (node: Node, name: string) => node.children.find((c) => c.name === name)?.text.trim() ?? '';
const rawChild = (node: Node, name: string) => node.children.find((c) => c.name === name)?.text ?? '';

function gmt(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!match || match[1] === '0000') return null;
  return new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`);
}

/** What the first pass learns: the file is whole and well-formed, and the lookups items refer to. */
export type WxrIndex = {
  total: number;
  basePath: string;
  /** The old site's address (wp:base_site_url, else the channel's <link>); '' when it has none. */
  siteUrl: string;
  authors: Map<string, string>;
  attachments: Map<string, string>;
  categoryParents: Map<string, string>;
};

/** First pass: validates the whole file before anything is written, and collects the lookups. */
export async function scanWxr(path: string): Promise<WxrIndex> {
  const index: WxrIndex = {
    total: 0,
    basePath: '',
    siteUrl: '',
    authors: new Map(),
    attachments: new Map(),
    categoryParents: new Map(),
  };
  let version = '';
  for await (const { node, inItem } of elements(path)) {
    if (inItem) {
      index.total++;
      if (child(node, 'wp:post_type') === 'attachment')
        index.attachments.set(detach(child(node, 'wp:post_id')), detach(child(node, 'wp:attachment_url')));
    } else if (node.name === 'wp:wxr_version') version = node.text.trim();
    else if (node.name === 'link' && !index.siteUrl) index.siteUrl = detach(node.text.trim());
    else if (node.name === 'wp:base_site_url') {
      index.siteUrl = detach(node.text.trim());
      try {
        index.basePath = detach(new URL(node.text.trim()).pathname.replace(/\/+$/, ''));
      } catch {
        index.basePath = '';
      }
    } else if (node.name === 'wp:author')
      index.authors.set(
        detach(child(node, 'wp:author_login')),
        detach(child(node, 'wp:author_display_name')),
      );
    else if (node.name === 'wp:category') {
      const parent = child(node, 'wp:category_parent');
      if (parent) index.categoryParents.set(detach(child(node, 'wp:category_nicename')), detach(parent));
    }
  }
  if (!version) throw new ImportError(NOT_WXR);
  return index;
}

const STATUSES: Record<string, PostStatus> = {
  publish: 'published',
  future: 'scheduled',
  draft: 'draft',
  pending: 'draft',
  private: 'draft',
};

function categoryPath(nicename: string, parents: Map<string, string>): string {
  const chain = [nicename];
  for (let at = parents.get(nicename); at && chain.length < 10; at = parents.get(at)) chain.unshift(at);
  return chain.join('/');
}

/** The footnotes block's notes: the post's `footnotes` meta, a JSON list of { id, content }. */
function footnotesOf(json: string | undefined, warnings: string[]): { id: string; html: string }[] {
  if (!json) return [];
  try {
    const notes: unknown = JSON.parse(json);
    if (!Array.isArray(notes)) throw new Error('not a list');
    return notes
      .filter(
        (n): n is { id: string; content: string } =>
          typeof n?.id === 'string' && typeof n?.content === 'string',
      )
      .map((n) => ({ id: n.id, html: n.content }));
  } catch {
    warnings.push(
      'its footnotes could not be read (the footnotes meta is not a JSON list): they are not imported',
    );
    return [];
  }
}

/** Second pass: each post and page as an import item; everything else skipped with its reason. */
export async function* readWxr(path: string, index: WxrIndex): AsyncGenerator<ReaderEvent> {
  for await (const { node, inItem } of elements(path)) {
    if (!inItem) continue;
    const id = child(node, 'wp:post_id');
    const type = child(node, 'wp:post_type');
    const title = htmlToText(child(node, 'title'));
    const wpStatus = child(node, 'wp:status');
    if (type !== 'post' && type !== 'page') {
      yield { type: 'skip', sourceId: id, title, reason: `${type || 'unknown'} (not a post or page)` };
      continue;
    }
    const status = STATUSES[wpStatus];
    if (!status) {
      yield { type: 'skip', sourceId: id, title, reason: `status ${wpStatus || 'missing'}` };
      continue;
    }
    const warnings: string[] = [];
    let finalStatus = status;
    if (child(node, 'wp:post_password')) {
      finalStatus = 'draft';
      warnings.push('password-protected on the old site: imported as a draft');
    }
    const meta = new Map<string, string[]>();
    for (const m of node.children.filter((c) => c.name === 'wp:postmeta')) {
      const key = child(m, 'wp:meta_key');
      meta.set(key, [...(meta.get(key) ?? []), child(m, 'wp:meta_value')]);
    }
    const categories = node.children.filter(
      (c) => c.name === 'category' && c.attributes.domain === 'category',
    );
    const tags = node.children
      .filter((c) => c.name === 'category' && c.attributes.domain === 'post_tag')
      .map((c) => htmlToText(c.text));
    const allComments = node.children.filter((c) => c.name === 'wp:comment');
    const pings = allComments.filter((c) =>
      ['pingback', 'trackback'].includes(child(c, 'wp:comment_type')),
    ).length;
    if (pings)
      warnings.push(`${pings} pingback(s) and trackback(s) not imported (Penstand shows comments only)`);
    const comments: ImportComment[] = allComments
      .filter((c) => child(c, 'wp:comment_approved') === '1')
      .filter((c) => ['', 'comment'].includes(child(c, 'wp:comment_type')))
      .map((c) => ({
        sourceId: child(c, 'wp:comment_id'),
        author: htmlToText(child(c, 'wp:comment_author')) || 'Anonymous',
        email: child(c, 'wp:comment_author_email'),
        date: gmt(child(c, 'wp:comment_date_gmt')) ?? gmt(child(c, 'wp:comment_date')) ?? new Date(0),
        html: rawChild(c, 'wp:comment_content'),
      }));
    const date = gmt(child(node, 'wp:post_date_gmt')) ?? gmt(child(node, 'wp:post_date'));
    const slug = decodeURIComponentSafe(child(node, 'wp:post_name'));
    const thumbnail = meta.get('_thumbnail_id')?.[0];
    const login = child(node, 'dc:creator');
    yield {
      type: 'item',
      item: {
        sourceSystem: 'wordpress',
        sourceId: id,
        kind: type,
        title,
        slug,
        status: finalStatus,
        date,
        html: rawChild(node, 'content:encoded'),
        excerpt: htmlToText(rawChild(node, 'excerpt:encoded')),
        authorName: index.authors.get(login) || login || null,
        // Pages have no categories: 'Pages' is theirs, for the mapping to place.
        categories: type === 'page' ? ['Pages'] : categories.map((c) => htmlToText(c.text)),
        tags,
        featuredImage: (thumbnail && index.attachments.get(thumbnail)) || null,
        featured: child(node, 'wp:is_sticky') === '1',
        comments,
        footnotes: footnotesOf(meta.get('footnotes')?.[0], warnings),
        oldPaths: oldWordPressPaths({
          id,
          kind: type,
          slug: child(node, 'wp:post_name'),
          oldSlugs: meta.get('_wp_old_slug') ?? [],
          // WordPress builds date permalinks from the site's local date.
          date: gmt(child(node, 'wp:post_date')) ?? date,
          link: child(node, 'link'),
          basePath: index.basePath,
          category: categories[0]
            ? categoryPath(categories[0].attributes.nicename ?? '', index.categoryParents)
            : '',
        }),
        warnings,
      },
    };
  }
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Every permalink shape WordPress could have served the post on, relative to the site's root. */
function oldWordPressPaths(post: {
  id: string;
  kind: 'post' | 'page';
  slug: string;
  oldSlugs: string[];
  date: Date | null;
  link: string;
  basePath: string;
  category: string;
}): string[] {
  const paths = new Set<string>([post.kind === 'page' ? `/?page_id=${post.id}` : `/?p=${post.id}`]);
  if (post.kind === 'page') paths.add(`/?p=${post.id}`);
  try {
    const link = new URL(post.link);
    const query = link.search ? link.search : '';
    paths.add(`${link.pathname}${query}`);
    if (post.basePath && link.pathname.startsWith(`${post.basePath}/`))
      paths.add(`${link.pathname.slice(post.basePath.length)}${query}`);
  } catch {
    // No usable <link>: the generated shapes below still cover the usual permalinks.
  }
  for (const slug of [post.slug, ...post.oldSlugs].filter(Boolean)) {
    paths.add(`/${slug}/`);
    if (post.kind === 'post') {
      if (post.date) {
        const [y, m, d] = post.date.toISOString().slice(0, 10).split('-');
        paths.add(`/${y}/${m}/${d}/${slug}/`);
        paths.add(`/${y}/${m}/${slug}/`);
      }
      if (post.category) paths.add(`/category/${post.category}/${slug}/`);
    }
  }
  return [...paths];
}
