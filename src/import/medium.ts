import { basename } from 'node:path';
import type { Element, Root, RootContent } from 'hast';
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import type { ReaderEvent } from './types.ts';
import type { ZipArchive } from './zip.ts';

/*
 * A Medium export (Settings → Download your information) is a zip of folders: posts/ holds one
 * HTML page per story, '<YYYY-MM-DD>_<Title-Words>-<id>.html' for a published one and
 * 'draft_<Title-Words>-<id>.html' for a draft, marked up with microformats (h-entry: p-name,
 * p-summary, e-content, dt-published, p-author, p-tags, p-canonical); profile/profile.html is the
 * writer's h-card (u-url: https://medium.com/@name). The writer's responses to other stories are
 * stories too. Facts from Ghost's migration tool (TryGhost/migrate: mg-medium-export) and its fixtures.
 */

const POST_FILE = /^posts\/[^/]+\.html$/;
const parser = unified().use(rehypeParse);
const serializer = unified().use(rehypeStringify);

/** posts/*.html at the top of the zip: the zip is a Medium export. */
export function mediumPostFiles(zip: ZipArchive): string[] {
  return zip.names.filter((name) => POST_FILE.test(name)).sort();
}

const classes = (node: Element) => (node.properties.className as string[] | undefined) ?? [];

function findAll(node: Root | Element, test: (element: Element) => boolean): Element[] {
  const found: Element[] = [];
  const walk = (n: Root | RootContent) => {
    if (n.type === 'element' && test(n)) found.push(n);
    if (n.type === 'element' || n.type === 'root') for (const child of n.children) walk(child);
  };
  walk(node);
  return found;
}

const byClass = (node: Root | Element, name: string) => findAll(node, (e) => classes(e).includes(name));

function textOf(node: Root | RootContent | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value;
  if (node.type === 'element' || node.type === 'root') return node.children.map(textOf).join('');
  return '';
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
const href = (node: Element | undefined) => String(node?.properties.href ?? '');

/** Removes elements from the tree (the repeated title, the featured image's figure…). */
function remove(root: Root | Element, doomed: Set<Element>): void {
  root.children = root.children.filter((child) => !(child.type === 'element' && doomed.has(child)));
  for (const child of root.children) if (child.type === 'element') remove(child, doomed);
}

/** Medium breaks the lines of a code block with <br>: they become the block's own line breaks. */
function codeLineBreaks(node: Element): void {
  node.children = node.children.map((child) =>
    child.type === 'element' && child.tagName === 'br' ? { type: 'text', value: '\n' } : child,
  );
  for (const child of node.children) if (child.type === 'element') codeLineBreaks(child);
}

/** The writer's profile address (medium.com/@name), from the profile page or else a story's byline. */
export async function mediumSite(zip: ZipArchive, files: string[]): Promise<string> {
  if (zip.has('profile/profile.html')) {
    const url = href(byClass(parser.parse(await zip.read('profile/profile.html')), 'u-url')[0]);
    if (url) return url;
  }
  for (const file of files) {
    const author = href(byClass(parser.parse(await zip.read(file)), 'p-author')[0]);
    if (author) return author;
  }
  return '';
}

/** Each story of posts/ as an import item: drafts as drafts, the canonical link as an old address. */
export async function* readMedium(zip: ZipArchive, files: string[]): AsyncGenerator<ReaderEvent> {
  const profile = zip.has('profile/profile.html')
    ? clean(textOf(byClass(parser.parse(await zip.read('profile/profile.html')), 'p-name')[0]))
    : '';
  for (const file of files) {
    const page = parser.parse(await zip.read(file));
    const name = basename(file);
    const draft = name.startsWith('draft');
    const title = clean(textOf(byClass(page, 'p-name')[0]));
    const summary = clean(textOf(byClass(page, 'p-summary')[0]));
    const canonical = href(byClass(page, 'p-canonical')[0]);
    // '…/story-words-1a2b3c4d5e6f' (or '…/1a2b3c4d5e6f' alone): the words are the slug, the hex the story's id.
    const [, slugWords = '', id = ''] =
      /(?:^|\/)(?:([^/]*?)-)?([0-9a-f]{8,})$/.exec(canonical) ?? /_(.*?)-([0-9a-f]+)\.html$/.exec(name) ?? [];
    if (!id) {
      yield { type: 'skip', sourceId: name, title, reason: 'no Medium story id in its link or file name' };
      continue;
    }
    const body = byClass(page, 'e-content')[0];
    const doomed = new Set<Element>();
    const warnings: string[] = [];
    let featuredImage: string | null = null;
    const images = body ? findAll(body, (e) => e.tagName === 'img').length : 0;
    if (body) {
      // Medium repeats the title and subtitle at the top of the body, after a divider line.
      for (const divider of byClass(body, 'section-divider')) doomed.add(divider);
      const heading = findAll(body, (e) => /^h[1-4]$/.test(e.tagName))[0];
      if (heading && clean(textOf(heading)) === title) doomed.add(heading);
      for (const subtitle of byClass(body, 'graf--subtitle'))
        if (clean(textOf(subtitle)) === summary) doomed.add(subtitle);
      const featured = findAll(
        body,
        (e) => e.tagName === 'img' && e.properties.dataIsFeatured !== undefined,
      )[0];
      if (featured) {
        featuredImage = String(featured.properties.src ?? '') || null;
        doomed.add(
          findAll(body, (e) => e.tagName === 'figure' && findAll(e, (i) => i === featured).length > 0)[0] ??
            featured,
        );
      }
      remove(body, doomed);
      for (const pre of findAll(body, (e) => e.tagName === 'pre')) codeLineBreaks(pre);
    }
    const paragraphs = body ? findAll(body, (e) => e.tagName === 'p').length : 0;
    let status: 'published' | 'draft' = draft ? 'draft' : 'published';
    // A response to another story is exported as a story: a single paragraph, no picture.
    if (!draft && paragraphs <= 1 && !images) {
      status = 'draft';
      warnings.push('looks like a response to another story (one paragraph): imported as a draft');
    }
    const published = byClass(page, 'dt-published')[0]?.properties.dateTime;
    const date = !draft && published ? new Date(String(published)) : null;
    const author = clean(textOf(byClass(page, 'p-author')[0])) || profile || null;
    let oldPath = '';
    try {
      oldPath = canonical ? new URL(canonical).pathname : '';
    } catch {
      warnings.push(`its canonical link ${canonical} is not an address: no old address kept`);
    }
    yield {
      type: 'item',
      item: {
        sourceSystem: 'medium',
        sourceId: id,
        kind: 'post',
        title,
        slug: slugWords.toLowerCase(),
        status,
        date: date && !Number.isNaN(date.getTime()) ? date : null,
        html: body ? serializer.stringify({ type: 'root', children: body.children }) : '',
        excerpt: summary,
        authorName: author,
        categories: [],
        tags: byClass(page, 'p-tags').flatMap((p) =>
          findAll(p, (e) => e.tagName === 'a').map((a) => clean(textOf(a))),
        ),
        featuredImage,
        featured: false,
        comments: [],
        // A draft never had an address of its own; a story answered on its canonical link and on /p/<id>.
        oldPaths: draft ? [] : [...(oldPath ? [oldPath] : []), `/p/${id}`],
        warnings,
      },
    };
  }
}
