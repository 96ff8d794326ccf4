import type { Element, Root, RootContent } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { getPublic } from '../import/images.ts';
import { Unprocessable } from '../kernel/errors.ts';
import { BOOKMARK_MESSAGES, type Bookmark } from './bookmark-schema.ts';

/** A page's head is in its first bytes: more is not read. */
const MAX_PAGE_BYTES = 512 * 1024;
const TIMEOUT_MS = 10_000;
const MAX_TEXT = 300;

const parser = unified().use(rehypeParse);

/** The body's first MAX_PAGE_BYTES (a longer page is cut, not refused: its head came first). */
async function readHead(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_PAGE_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, MAX_PAGE_BYTES).toString('utf8');
}

function elements(node: Root | Element, found: Element[] = []): Element[] {
  for (const child of node.children as RootContent[]) {
    if (child.type !== 'element') continue;
    found.push(child);
    elements(child, found);
  }
  return found;
}

const text = (node: Element): string =>
  node.children.map((c) => (c.type === 'text' ? c.value : c.type === 'element' ? text(c) : '')).join('');

const clean = (value: string) => value.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);

/** The title, description and image a page gives sharers (Open Graph, then Twitter, then plain HTML). */
export function pageMetadata(html: string, url: string): Omit<Bookmark, 'url'> {
  const all = elements(parser.parse(html));
  const meta = (...names: string[]) => {
    for (const name of names) {
      const tag = all.find(
        (el) =>
          el.tagName === 'meta' &&
          String(el.properties.property ?? el.properties.name ?? '').toLowerCase() === name,
      );
      const content = clean(String(tag?.properties.content ?? ''));
      if (content) return content;
    }
    return '';
  };
  const titleTag = all.find((el) => el.tagName === 'title');
  const image = meta('og:image', 'og:image:url', 'twitter:image');
  let imageUrl = '';
  try {
    const resolved = image ? new URL(image, url) : null;
    if (resolved && /^https?:$/.test(resolved.protocol)) imageUrl = resolved.href;
  } catch {
    // An image address that is no address: the card goes without.
  }
  return {
    title: meta('og:title', 'twitter:title') || clean(titleTag ? text(titleTag) : ''),
    description: meta('og:description', 'twitter:description', 'description'),
    image: imageUrl,
  };
}

/**
 * Reads a page for a bookmark card, through the importer's guard (src/import/images.ts: no
 * loopback, private or reserved address unless allowed, at every redirect), HTML only, its first
 * MAX_PAGE_BYTES, within TIMEOUT_MS. Any failure is the one refusal the writer can act on.
 */
export async function readBookmark(url: string, allowedAddresses: string[]): Promise<Bookmark> {
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  try {
    const response = await getPublic(url, allowedAddresses, signal);
    const status = response.statusCode ?? 0;
    const type = String(response.headers['content-type'] ?? '').toLowerCase();
    if (status < 200 || status >= 300 || !/^\s*(text\/html|application\/xhtml\+xml)\b/.test(type)) {
      response.destroy();
      throw new Error(`HTTP ${status} ${type}`);
    }
    const html = await readHead(response);
    response.destroy();
    return { url, ...pageMetadata(html, url) };
  } catch {
    throw new Unprocessable(BOOKMARK_MESSAGES.unreadable);
  }
}
