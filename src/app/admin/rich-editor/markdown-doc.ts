import type { JSONContent } from '@tiptap/core';
import type { BlockContent, ListItem, PhrasingContent, Root, RootContent, Table, Text } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { splitImageWidth } from '../../../blog/figures.ts';
import { PODCAST_URL } from '../../../blog/post-schema.ts';

/**
 * Markdown (with our markers) ⇄ the rich editor's document. Markdown stays the one stored format,
 * so loading must never lose a byte: each top-level block becomes an editable node only when
 * writing that node back gives its source exactly; any other block is kept as a Markdown card
 * holding its source. The text between blocks travels on the block (mdBefore), and what follows
 * the last one on it (mdAfter). No I/O and no DOM here: the round-trip test runs it in Node.
 */

const parser = unified().use(remarkParse).use(remarkGfm);

/** Today's media markers, each alone on its line: the cards of the editor. */
const CARD_MARKERS = {
  youtube: /^\[youtube:([A-Za-z0-9_-]{11})\]$/,
  podcast: new RegExp(String.raw`^\[podcast:(${PODCAST_URL})\]$`),
  product: /^\[product:(\d{1,9})\]$/,
} as const;

/**
 * A callout: a one-line quote that opens with an emoji, as the importer writes Ghost's callout
 * cards (src/import/content.ts) and the site renders as a quote.
 */
const CALLOUT = /^> (\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic})*) (\S[^\n]*)$/u;

/** A gallery: two or more images on one line, side by side on the page (blog.css). */
const GALLERY_IMAGE = /!\[([^[\]\n]*)\]\(([^()\s"]+)\)/g;
const GALLERY = /^!\[[^[\]\n]*\]\([^()\s"]+\)(?: !\[[^[\]\n]*\]\([^()\s"]+\))+$/;

export type GalleryImage = { src: string; alt: string };

const BLOCK_SEPARATOR = '\n\n';
const COLOUR_OPEN = /^<span style="color: (#[0-9a-fA-F]{3,8}|[a-z]+)">$/;

/** The Markdown a document is written back as. */
/** The line that ends a members' post's public preview (src/blog/paywall.ts), as the editor writes it. */
const PAYWALL = '[paywall]';

export function docToMarkdown(doc: JSONContent): string {
  // Empty paragraphs, galleries and bookmarks are the editor's, never a loaded post's (blank lines
  // in Markdown are spacing; a gallery whose picker was cancelled, a bookmark never given an
  // address, hold nothing).
  const blocks = (doc.content ?? []).filter(
    (block, _, all) =>
      (all.length === 1 || block.type !== 'paragraph' || block.content?.length) &&
      (block.type !== 'galleryCard' || block.attrs?.images?.length) &&
      (block.type !== 'bookmarkCard' || String(block.attrs?.url ?? '').trim()),
  );
  return blocks
    .map((block, index) => {
      const before = index === 0 ? (block.attrs?.mdBefore ?? '') : block.attrs?.mdBefore || BLOCK_SEPARATOR;
      const after = index === blocks.length - 1 ? (block.attrs?.mdAfter ?? '') : '';
      return before + writeBlock(block) + after;
    })
    .join('');
}

/** The document a post's Markdown is loaded as. */
export function markdownToDoc(markdown: string): JSONContent {
  const tree = parser.parse(markdown) as Root;
  const content: JSONContent[] = [];
  let end = 0;
  for (const node of tree.children) {
    const from = node.position?.start.offset ?? 0;
    const to = node.position?.end.offset ?? from;
    const source = markdown.slice(from, to);
    const block = editable(node, source);
    const attrs = { ...block.attrs, mdBefore: markdown.slice(end, from) };
    content.push({ ...block, attrs });
    end = to;
  }
  if (content.length === 0) content.push({ type: 'paragraph', attrs: { mdBefore: markdown } });
  else {
    const last = content[content.length - 1];
    last.attrs = { ...last.attrs, mdAfter: markdown.slice(end) };
  }
  return { type: 'doc', content };
}

/** The node for a block when it writes back to its source, else a card keeping the source. */
function editable(node: RootContent, source: string): JSONContent {
  const card = cardFor(source);
  if (card) return card;
  const bookmark = toBookmark(node);
  if (bookmark && writeBlock(bookmark) === source) return bookmark;
  const converted = toBlock(node);
  if (converted && writeBlock(converted) === source) return converted;
  return { type: 'markdownCard', attrs: { source } };
}

function cardFor(source: string): JSONContent | null {
  if (source === PAYWALL) return { type: 'paywallCard' };
  for (const [kind, pattern] of Object.entries(CARD_MARKERS)) {
    const match = pattern.exec(source);
    if (match) return { type: 'embedCard', attrs: { kind, value: match[1] } };
  }
  const callout = CALLOUT.exec(source);
  if (callout && writeCallout(callout[1], callout[2]) === source)
    return { type: 'calloutCard', attrs: { emoji: callout[1], text: callout[2] } };
  if (GALLERY.test(source)) {
    const images = [...source.matchAll(GALLERY_IMAGE)].map((m) => ({ alt: m[1], src: m[2] }));
    if (writeImages(images) === source) return { type: 'galleryCard', attrs: { images } };
  }
  // The title is the figure's caption on the page, a #wide or #full address its width (src/blog/figures.ts).
  const image = /^!\[([^[\]\n]*)\]\(([^()\s"]+)(?: "([^"\n]+)")?\)$/.exec(source);
  if (image)
    return {
      type: 'imageCard',
      attrs: { alt: image[1], ...splitImageWidth(image[2]), caption: image[3] ?? '' },
    };
  return null;
}

/**
 * A bookmark: a one-paragraph quote whose first line is a bold link (the page's title), then its
 * description and publisher, each on its own line, and last maybe its image: the form the importer
 * writes for Ghost's bookmark cards (src/import/content.ts), the image line added by the editor.
 */
function toBookmark(node: RootContent): JSONContent | null {
  const paragraph = node.type === 'blockquote' && node.children.length === 1 ? node.children[0] : null;
  if (paragraph?.type !== 'paragraph') return null;
  const lines: PhrasingContent[][] = [[]];
  for (const child of paragraph.children) {
    if (child.type === 'break') lines.push([]);
    else lines[lines.length - 1].push(child);
  }
  const [[strong, ...more], ...rest] = lines;
  const link = strong?.type === 'strong' && strong.children.length === 1 ? strong.children[0] : null;
  const isText = (line: PhrasingContent[]) => line.every((child) => child.type === 'text');
  if (more.length || link?.type !== 'link' || !isText(link.children)) return null;
  const last = rest.at(-1);
  const image = last?.length === 1 && last[0].type === 'image' && !last[0].alt ? last[0].url : '';
  const texts = image ? rest.slice(0, -1) : rest;
  if (texts.length > 2 || !texts.every(isText)) return null;
  const plain = (line: PhrasingContent[] = []) => line.map((child) => (child as Text).value).join('');
  const attrs = { url: link.url, title: plain(link.children), description: plain(texts[0]), image };
  return { type: 'bookmarkCard', attrs: { ...attrs, publisher: plain(texts[1]) } };
}

/** The bookmark's quote; an empty title is the address, as the importer writes it. */
function writeBookmark(attrs: Record<string, unknown>): string {
  const oneLine = (value: unknown) =>
    escapeText(
      String(value ?? '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  // Percent-encoded by hand: encodeURIComponent leaves parentheses, which would end the address.
  const address = (value: unknown) =>
    String(value ?? '')
      .trim()
      .replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  const lines = [
    `**[${oneLine(attrs.title) || oneLine(attrs.url)}](${address(attrs.url)})**`,
    oneLine(attrs.description),
    oneLine(attrs.publisher),
    attrs.image ? `![](${address(attrs.image)})` : '',
  ].filter(Boolean);
  return lines.map((line) => `> ${line}`).join('  \n');
}

function toBlock(node: RootContent | BlockContent): JSONContent | null {
  switch (node.type) {
    case 'paragraph': {
      const content = toInline(node.children);
      return content && { type: 'paragraph', content: nonEmpty(content) };
    }
    case 'heading': {
      const content = toInline(node.children);
      return content && { type: 'heading', attrs: { level: node.depth }, content: nonEmpty(content) };
    }
    case 'thematicBreak':
      return { type: 'horizontalRule' };
    case 'code':
      return {
        type: 'codeBlock',
        attrs: { language: node.lang ?? null },
        content: node.value ? [{ type: 'text', text: node.value }] : undefined,
      };
    case 'blockquote': {
      const children = node.children.map((child) => toBlock(child));
      return children.every(Boolean) ? { type: 'blockquote', content: children as JSONContent[] } : null;
    }
    case 'table':
      return toTable(node);
    case 'list': {
      if (node.spread || node.children.some((item) => item.spread || item.checked != null)) return null;
      const items = node.children.map(toListItem);
      if (!items.every(Boolean)) return null;
      return node.ordered
        ? { type: 'orderedList', attrs: { start: node.start ?? 1 }, content: items as JSONContent[] }
        : { type: 'bulletList', content: items as JSONContent[] };
    }
    default:
      return null;
  }
}

/** A GFM table: its first row is the header; each cell holds one paragraph of inline text. */
function toTable(table: Table): JSONContent | null {
  const rows: JSONContent[] = [];
  for (const [index, row] of table.children.entries()) {
    const cells: JSONContent[] = [];
    for (const cell of row.children) {
      const content = toInline(cell.children);
      if (!content) return null;
      cells.push({
        type: index === 0 ? 'tableHeader' : 'tableCell',
        content: [{ type: 'paragraph', content: nonEmpty(content) }],
      });
    }
    rows.push({ type: 'tableRow', content: cells });
  }
  return { type: 'table', attrs: { mdAlign: table.align ?? [] }, content: rows };
}

const DELIMITERS: Record<string, string> = { left: ':---', right: '---:', center: ':---:' };

function writeTable(table: JSONContent): string {
  const rows = (table.content ?? []).map(
    (row) =>
      `| ${(row.content ?? [])
        .map((cell) =>
          (cell.content ?? [])
            .map((paragraph) => writeInline(paragraph.content ?? []))
            .join(' ')
            .replace(/(?<!\\)\|/g, '\\|'),
        )
        .join(' | ')} |`,
  );
  const columns = table.content?.[0]?.content?.length ?? 0;
  const align: (string | null)[] = table.attrs?.mdAlign ?? [];
  const delimiter = `| ${Array.from({ length: columns }, (_, i) => DELIMITERS[align[i] ?? ''] ?? '---').join(' | ')} |`;
  return [rows[0], delimiter, ...rows.slice(1)].join('\n');
}

function toListItem(item: ListItem): JSONContent | null {
  const children = item.children.map((child) => toBlock(child));
  return children.every(Boolean) && children.length > 0
    ? { type: 'listItem', content: children as JSONContent[] }
    : null;
}

function nonEmpty(content: JSONContent[]): JSONContent[] | undefined {
  return content.length > 0 ? content : undefined;
}

type Mark = NonNullable<JSONContent['marks']>[number];

/** Inline Markdown as text with marks; null when something in it has no mark of ours. */
function toInline(nodes: PhrasingContent[], marks: Mark[] = []): JSONContent[] | null {
  const out: JSONContent[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const withMark = (mark: Mark, children: PhrasingContent[]) => {
      const inner = toInline(children, [...marks, mark]);
      if (!inner) return false;
      out.push(...inner);
      return true;
    };
    let ok = true;
    switch (node.type) {
      case 'text':
        out.push(textNode(node.value, marks));
        break;
      case 'strong':
        ok = withMark({ type: 'bold' }, node.children);
        break;
      case 'emphasis':
        ok = withMark({ type: 'italic' }, node.children);
        break;
      case 'delete':
        ok = withMark({ type: 'strike' }, node.children);
        break;
      case 'inlineCode':
        out.push(textNode(node.value, [...marks, { type: 'code' }]));
        break;
      case 'link':
        ok = withMark({ type: 'link', attrs: { href: node.url, title: node.title ?? null } }, node.children);
        break;
      case 'footnoteReference':
        out.push({ type: 'footnoteRef', attrs: { label: node.label ?? node.identifier } });
        break;
      case 'break':
        out.push({ type: 'hardBreak', marks: marks.length ? marks : undefined });
        break;
      case 'html': {
        // The toolbar's inline HTML: <u>…</u> and <span style="color: …">…</span>.
        const close = node.value === '<u>' ? '</u>' : COLOUR_OPEN.test(node.value) ? '</span>' : null;
        const end = close ? nodes.findIndex((n, j) => j > i && n.type === 'html' && n.value === close) : -1;
        if (!close || end < 0) return null;
        const colour = COLOUR_OPEN.exec(node.value)?.[1];
        const mark: Mark = colour ? { type: 'colour', attrs: { value: colour } } : { type: 'underline' };
        ok = withMark(mark, nodes.slice(i + 1, end));
        i = end;
        break;
      }
      default:
        return null;
    }
    if (!ok) return null;
  }
  return out;
}

function textNode(text: string, marks: Mark[]): JSONContent {
  return marks.length ? { type: 'text', text, marks } : { type: 'text', text };
}

function writeBlock(block: JSONContent): string {
  const children = block.content ?? [];
  switch (block.type) {
    case 'paragraph':
      return writeInline(children);
    case 'heading':
      return `${'#'.repeat(block.attrs?.level ?? 2)} ${writeInline(children)}`;
    case 'horizontalRule':
      return '---';
    case 'codeBlock':
      return `\`\`\`${block.attrs?.language ?? ''}\n${children.map((c) => c.text ?? '').join('')}\n\`\`\``;
    case 'blockquote':
      return prefixLines(children.map(writeBlock).join(BLOCK_SEPARATOR), '> ', '>');
    case 'bulletList':
      return children.map((item) => listItem(item, '- ')).join('\n');
    case 'orderedList': {
      const start = block.attrs?.start ?? 1;
      return children.map((item, index) => listItem(item, `${start + index}. `)).join('\n');
    }
    case 'table':
      return writeTable(block);
    case 'embedCard':
      return `[${block.attrs?.kind}:${block.attrs?.value}]`;
    case 'imageCard': {
      const caption = String(block.attrs?.caption ?? '').replace(/["\n]/g, '');
      const width = block.attrs?.width && block.attrs.width !== 'normal' ? `#${block.attrs.width}` : '';
      return `![${imageAlt(block.attrs?.alt)}](${block.attrs?.src}${width}${caption ? ` "${caption}"` : ''})`;
    }
    case 'galleryCard':
      return writeImages(block.attrs?.images ?? []);
    case 'bookmarkCard':
      return writeBookmark(block.attrs ?? {});
    case 'paywallCard':
      return PAYWALL;
    case 'calloutCard':
      return writeCallout(String(block.attrs?.emoji ?? ''), String(block.attrs?.text ?? ''));
    case 'markdownCard':
      return block.attrs?.source ?? '';
    default:
      return '';
  }
}

/** Alt text as Markdown holds it: brackets and line breaks would end it. */
function imageAlt(alt: unknown): string {
  return String(alt ?? '').replace(/[[\]\n]/g, '');
}

function writeImages(images: GalleryImage[]): string {
  return images.map((image) => `![${imageAlt(image.alt)}](${image.src})`).join(' ');
}

/** The callout's line; a line break in its text would end the quote, so it becomes a space. */
function writeCallout(emoji: string, text: string): string {
  return `> ${[emoji.trim(), text.replace(/\s*\n\s*/g, ' ').trim()].filter(Boolean).join(' ')}`;
}

function listItem(item: JSONContent, marker: string): string {
  const body = (item.content ?? []).map(writeBlock).join('\n');
  const indent = ' '.repeat(marker.length);
  const [first, ...rest] = body.split('\n');
  return [marker + first, ...rest.map((line) => (line ? indent + line : line))].join('\n');
}

function prefixLines(text: string, prefix: string, emptyPrefix: string): string {
  return text
    .split('\n')
    .map((line) => (line ? prefix + line : emptyPrefix))
    .join('\n');
}

/** Marks are written outermost first, in the order a text run opens them. */
const MARK_SYNTAX: Record<string, (mark: Mark) => [string, string]> = {
  bold: () => ['**', '**'],
  italic: () => ['*', '*'],
  strike: () => ['~~', '~~'],
  underline: () => ['<u>', '</u>'],
  colour: (mark) => [`<span style="color: ${mark.attrs?.value}">`, '</span>'],
  link: (mark) => ['[', `](${mark.attrs?.href}${mark.attrs?.title ? ` "${mark.attrs.title}"` : ''})`],
};

function writeInline(nodes: JSONContent[]): string {
  let out = '';
  let open: Mark[] = [];
  const closeTo = (depth: number) => {
    while (open.length > depth) {
      const mark = open.pop() as Mark;
      out += MARK_SYNTAX[mark.type](mark)[1];
    }
  };
  for (const node of nodes) {
    const marks = (node.marks ?? []).filter((m) => m.type !== 'code');
    let same = 0;
    while (same < open.length && same < marks.length && sameMark(open[same], marks[same])) same++;
    closeTo(same);
    for (const mark of marks.slice(same)) {
      out += MARK_SYNTAX[mark.type]?.(mark)[0] ?? '';
      open.push(mark);
    }
    if (node.type === 'hardBreak') out += '\\\n';
    else if (node.type === 'footnoteRef') out += `[^${node.attrs?.label}]`;
    else if (node.marks?.some((m) => m.type === 'code')) out += codeSpan(node.text ?? '');
    else out += escapeText(node.text ?? '');
  }
  closeTo(0);
  open = [];
  return out;
}

function sameMark(a: Mark, b: Mark): boolean {
  return a.type === b.type && JSON.stringify(a.attrs ?? null) === JSON.stringify(b.attrs ?? null);
}

function codeSpan(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return fence + pad + text + pad + fence;
}

/** Escapes what Markdown would read as syntax; an underscore inside a word is plain text there. */
function escapeText(text: string): string {
  return (
    text
      .replace(/[\\`*[\]<>~]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, (c) => `\\${c}`)
      // A line's start that reads as a heading ('##'), a list item, a rule ('---') or an ordered item.
      .replace(/^(\s*)(#+|[+-]+|\d+[.)])(?=\s|$)/gm, (_, space: string, marker: string) =>
        /^\d/.test(marker) ? `${space}${marker.slice(0, -1)}\\${marker.slice(-1)}` : `${space}\\${marker}`,
      )
  );
}
