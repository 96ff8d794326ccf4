import type { Element, Root, RootContent } from 'hast';
import rehypeParse from 'rehype-parse';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { unified } from 'unified';
import { sanitizeHtml } from '../blog/markdown.ts';
import { extractYouTubeId, isYouTubeId } from '../blog/youtube.ts';

/** What the conversion of one body noticed, for the import report. */
export type ContentNotes = {
  shortcodes: Set<string>;
  keptHtml: number;
  droppedFrames: number;
  /** Footnote ids (WordPress's footnotes block) in the order the body refers to them. */
  footnotes: string[];
};

/** A footnote of WordPress's footnotes block (6.3+): its id and its text, as HTML. */
export type ImportFootnote = { id: string; html: string };

/** Shortcodes this converter understands; any other is kept as text and reported. */
const KNOWN_SHORTCODES = new Set(['embed', 'audio', 'caption', 'wp_caption']);
const SHORTCODE = /\[(\/?)([a-z][a-z0-9_-]*)((?:\s[^\]]*)?)\]/gi;
const YOUTUBE_URL = /https?:\/\/(?:www\.|m\.)?(?:youtube(?:-nocookie)?\.com|youtu\.be)\/[^\s<>"'\]]+/;

function youTubeId(url: string): string | null {
  const id = extractYouTubeId(url.replace(/&amp;/g, '&'));
  return isYouTubeId(id) ? id : null;
}

/** A placeholder element turndown turns into a media marker, so the marker's brackets are not escaped. */
const marker = (text: string) =>
  `<penstand-marker>${text.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</penstand-marker>`;

function attribute(attrs: string, name: string): string | null {
  const match = attrs.match(new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s\\]]+))`, 'i'));
  return match ? (match[1] ?? match[2] ?? match[3]) : null;
}

/** Block-editor comments, WordPress shortcodes and bare embed URLs → plain HTML and marker placeholders. */
function preprocess(html: string, notes: ContentNotes): string {
  return (
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/\[embed[^\]]*\]([\s\S]*?)\[\/embed\]/gi, (_whole, url: string) => {
        const id = youTubeId(url.trim());
        return id ? marker(`youtube:${id}`) : `<a href="${url.trim()}">${url.trim()}</a>`;
      })
      .replace(/\[audio([^\]]*)\](?:\s*\[\/audio\])?/gi, (whole, attrs: string) => {
        const src = ['src', 'mp3', 'm4a', 'ogg', 'wav'].map((n) => attribute(attrs, n)).find(Boolean);
        return src && /^https?:\/\//.test(src) ? marker(`podcast:${src}`) : whole;
      })
      .replace(/\[\/?(?:wp_)?caption[^\]]*\]/gi, '')
      // WordPress turns a URL alone on its line into an embed: YouTube ones become markers.
      .replace(
        new RegExp(`(^|>|\\n)[ \\t]*(${YOUTUBE_URL.source})[ \\t]*(?=$|<|\\n)`, 'g'),
        (whole, before: string, url: string) => {
          const id = youTubeId(url);
          return id ? `${before}${marker(`youtube:${id}`)}` : whole;
        },
      )
      .replace(SHORTCODE, (whole, _close, name: string) => {
        if (!KNOWN_SHORTCODES.has(name.toLowerCase())) notes.shortcodes.add(name.toLowerCase());
        return whole;
      })
  );
}

const SAFE_URL = /^(?:https?:|mailto:|\/|#|\?|\.{0,2}\/|[^:/?#]+(?:[/?#]|$))/i;

function hasSpanningCell(node: HTMLElement): boolean {
  return Array.from(node.querySelectorAll('td, th')).some(
    (cell) => Number(cell.getAttribute('colspan') ?? 1) > 1 || Number(cell.getAttribute('rowspan') ?? 1) > 1,
  );
}

function isGallery(node: HTMLElement): boolean {
  return /\b(wp-block-gallery|gallery|tiled-gallery)\b/.test(node.getAttribute('class') ?? '');
}

function createConverter(notes: { current: ContentNotes }): TurndownService {
  // Kept HTML goes through the editor's sanitizer, on one paragraph: a blank line would end the HTML block.
  const keptHtml = (_content: string, node: TurndownService.Node) => {
    notes.current.keptHtml++;
    const html = sanitizeHtml((node as HTMLElement).outerHTML)
      .replace(/\n\s*\n/g, '\n')
      .trim();
    return html ? `\n\n${html}\n\n` : '';
  };
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    // The GFM plugin keeps tables without a heading row.
    keepReplacement: keptHtml,
  });
  service.use(gfm);
  service.remove([
    'script',
    'style',
    'noscript',
    'object',
    'embed',
    'form',
    'button',
    'select',
    'textarea',
    'input',
  ]);
  // A rule, not keep(): rules added later win over the GFM plugin's table rule.
  service.addRule('unconvertible', {
    // A table without rows too: the GFM plugin's table rule fails on one.
    filter: (node) =>
      (node.nodeName === 'TABLE' && (!(node as HTMLTableElement).rows?.length || hasSpanningCell(node))) ||
      isGallery(node),
    replacement: keptHtml,
  });
  // WordPress's footnote markers, <sup data-fn="id"><a href="#id">1</a></sup>, become Markdown
  // footnote references, numbered in the order the body refers to them.
  service.addRule('footnoteRefs', {
    filter: (node) => node.nodeName === 'SUP' && (node as HTMLElement).hasAttribute('data-fn'),
    replacement: (_content, node) => {
      const id = (node as HTMLElement).getAttribute('data-fn') ?? '';
      const { footnotes } = notes.current;
      if (!footnotes.includes(id)) footnotes.push(id);
      return `[^${footnotes.indexOf(id) + 1}]`;
    },
  });
  // A Ghost bookmark card (a link with its page's title, description and publisher) becomes a
  // quoted link card, where turndown alone made debris of its block link.
  service.addRule('bookmarkCards', {
    filter: (node) =>
      node.nodeName === 'FIGURE' &&
      (node as HTMLElement).classList.contains('kg-bookmark-card') &&
      SAFE_URL.test(node.querySelector('a')?.getAttribute('href')?.trim() ?? ''),
    replacement: (_content, node) => {
      const href = node.querySelector('a')?.getAttribute('href')?.trim() ?? '';
      const text = (selector: string) =>
        service.escape((node.querySelector(selector)?.textContent ?? '').replace(/\s+/g, ' ').trim());
      const lines = [
        `**[${text('.kg-bookmark-title') || service.escape(href)}](${href.replace(/[()\s]/g, encodeURIComponent)})**`,
        text('.kg-bookmark-description'),
        [text('.kg-bookmark-publisher'), text('.kg-bookmark-author')].filter(Boolean).join(' · '),
      ].filter(Boolean);
      return `\n\n${lines.map((line) => `> ${line}`).join('  \n')}\n\n`;
    },
  });
  // Cards and blocks turndown alone would leave as debris (docs/writers-guide.md: Block by block).
  const hasClass = (node: Node, name: string) => (node as HTMLElement).classList?.contains(name) ?? false;
  const textOf = (node: Node, selector: string) =>
    service.escape(
      (node as HTMLElement).querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
    );
  const linkTo = (href: string) => href.trim().replace(/[()\s]/g, encodeURIComponent);
  // A WordPress file block: the file's link and its Download button, as one link.
  service.addRule('fileBlocks', {
    filter: (node) =>
      node.nodeName === 'DIV' && hasClass(node, 'wp-block-file') && node.querySelector('a') !== null,
    replacement: (_content, node) => {
      const link = (node as HTMLElement).querySelector('a') as HTMLAnchorElement;
      const href = link.getAttribute('href') ?? '';
      if (!SAFE_URL.test(href.trim())) return '';
      return `\n\n[${service.escape(link.textContent?.trim() || 'Download')}](${linkTo(href)})\n\n`;
    },
  });
  // A Ghost file card: its title as the link, the caption, file name and size after it.
  service.addRule('fileCards', {
    filter: (node) => hasClass(node, 'kg-file-card') && node.querySelector('a') !== null,
    replacement: (_content, node) => {
      const href = (node as HTMLElement).querySelector('a')?.getAttribute('href') ?? '';
      if (!SAFE_URL.test(href.trim())) return '';
      const name =
        textOf(node, '.kg-file-card-title') || textOf(node, '.kg-file-card-filename') || 'Download';
      const about = [textOf(node, '.kg-file-card-filename'), textOf(node, '.kg-file-card-filesize')]
        .filter(Boolean)
        .join(', ');
      const caption = textOf(node, '.kg-file-card-caption');
      return `\n\n[${name}](${linkTo(href)})${about ? ` (${about})` : ''}${caption ? `: ${caption}` : ''}\n\n`;
    },
  });
  // A Ghost audio card: its title, then the podcast player (not its play button and clock).
  service.addRule('audioCards', {
    filter: (node) => hasClass(node, 'kg-audio-card'),
    replacement: (_content, node) => {
      const src = (node as HTMLElement).querySelector('audio')?.getAttribute('src') ?? '';
      const title = textOf(node, '.kg-audio-title');
      const player = /^https?:\/\//.test(src) ? `[podcast:${src}]` : '';
      return `\n\n${[title && `**${title}**`, player].filter(Boolean).join('\n\n')}\n\n`;
    },
  });
  // A Ghost callout: its emoji and text as one quoted line.
  service.addRule('calloutCards', {
    filter: (node) => hasClass(node, 'kg-callout-card'),
    replacement: (_content, node) => {
      const emoji = textOf(node, '.kg-callout-emoji');
      const text = converterFor(node, '.kg-callout-text');
      return `\n\n> ${[emoji, text].filter(Boolean).join(' ')}\n\n`;
    },
  });
  // A Ghost sign-up card is the old site's form: this site has its own subscribe box.
  service.addRule('signupCards', {
    filter: (node) => hasClass(node, 'kg-signup-card'),
    replacement: () => '',
  });
  // A video file (no mail client or Markdown plays one): a link to it where it was.
  service.addRule('videos', {
    filter: 'video',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const src = element.getAttribute('src') ?? element.querySelector('source')?.getAttribute('src') ?? '';
      return /^https?:\/\//.test(src) ? `\n\n[Video](${linkTo(src)})\n\n` : '';
    },
  });
  const converterFor = (node: Node, selector: string) => {
    const part = (node as HTMLElement).querySelector(selector);
    return part
      ? service
          .turndown(part.innerHTML)
          .replace(/\s*\n\s*/g, ' ')
          .trim()
      : '';
  };
  service.addRule('markers', {
    filter: (node) => node.nodeName === 'PENSTAND-MARKER',
    replacement: (_content, node) => `\n\n[${node.textContent}]\n\n`,
  });
  // WordPress's preformatted block is a <pre> without <code>: still a code block.
  service.addRule('plainPre', {
    filter: (node) => node.nodeName === 'PRE' && !node.querySelector('code'),
    replacement: (_content, node) => {
      const text = (node.textContent ?? '').replace(/\n$/, '');
      const fence = text.includes('```') ? '~~~' : '```';
      return `\n\n${fence}\n${text}\n${fence}\n\n`;
    },
  });
  // WordPress image blocks and Ghost image cards: the caption becomes the image's title, which
  // the post renderer shows as the figure's caption.
  service.addRule('captionedImages', {
    filter: (node) =>
      node.nodeName === 'FIGURE' &&
      node.querySelectorAll('img').length === 1 &&
      node.querySelector('figcaption') !== null &&
      SAFE_URL.test(node.querySelector('img')?.getAttribute('src')?.trim() ?? ''),
    replacement: (_content, node) => {
      const img = node.querySelector('img') as HTMLImageElement;
      const caption = (node.querySelector('figcaption')?.textContent ?? '').replace(/\s+/g, ' ').trim();
      const alt = (img.getAttribute('alt') ?? '').replace(/[[\]\\]/g, '');
      const title = caption ? ` "${caption.replace(/["\\]/g, '\\$&')}"` : '';
      return `\n\n![${alt}](${img.getAttribute('src')?.trim()}${title})\n\n`;
    },
  });
  service.addRule('frames', {
    filter: 'iframe',
    replacement: (_content, node) => {
      const id = youTubeId((node as HTMLElement).getAttribute('src') ?? '');
      if (id) return `\n\n[youtube:${id}]\n\n`;
      notes.current.droppedFrames++;
      return '';
    },
  });
  service.addRule('audio', {
    filter: 'audio',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const src = element.getAttribute('src') ?? element.querySelector('source')?.getAttribute('src') ?? '';
      return /^https?:\/\//.test(src) ? `\n\n[podcast:${src}]\n\n` : '';
    },
  });
  // Links and images whose address is not web, mail or relative (javascript:, data:) lose it.
  service.addRule('unsafeLinks', {
    filter: (node) =>
      node.nodeName === 'A' && !SAFE_URL.test((node as HTMLElement).getAttribute('href')?.trim() ?? ''),
    replacement: (content) => content,
  });
  service.addRule('unsafeImages', {
    filter: (node) =>
      node.nodeName === 'IMG' && !SAFE_URL.test((node as HTMLElement).getAttribute('src')?.trim() ?? ''),
    replacement: () => '',
  });
  return service;
}

const BLOCK_START =
  /^(?:<\/?(?:p|div|h[1-6]|ul|ol|li|dl|dd|dt|table|thead|tbody|tr|td|th|figure|blockquote|pre|hr|address|section|iframe|audio|video)\b|\uE000)/i;

/**
 * WordPress's own rule for classic bodies: text separated by blank lines is a paragraph and a
 * single newline a line break; <pre> blocks are left alone.
 */
function autop(html: string): string {
  const pres: string[] = [];
  const guarded = html.replace(/<pre[\s\S]*?<\/pre>/gi, (pre) => `\uE000${pres.push(pre) - 1}\uE000`);
  return guarded
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => (BLOCK_START.test(block) ? block : `<p>${block.replace(/\n/g, '<br>')}</p>`))
    .join('\n')
    .replace(/\uE000(\d+)\uE000/g, (_, i: string) => pres[Number(i)]);
}

/** Where a reader put a paid post's paywall in its HTML: the body is converted on either side of it. */
export const PAYWALL_COMMENT = '<!--paywall-->';

const notesRef: { current: ContentNotes } = { current: emptyNotes() };
const converter = createConverter(notesRef);

export function emptyNotes(): ContentNotes {
  return { shortcodes: new Set(), keptHtml: 0, droppedFrames: 0, footnotes: [] };
}

/**
 * An imported body (WordPress classic or block editor, Ghost) → Markdown with the editor's media
 * markers; what does not convert faithfully stays as sanitized HTML.
 */
export function htmlToMarkdown(html: string, notes: ContentNotes, footnotes: ImportFootnote[] = []): string {
  notesRef.current = notes;
  // Block-editor bodies carry their own markup; classic ones rely on WordPress's paragraphs.
  const withParagraphs = html.includes('<!-- wp:') ? html : autop(html);
  const prepared = preprocess(withParagraphs, notes);
  try {
    return `${converter.turndown(prepared).trim()}${footnoteDefinitions(notes, footnotes)}`;
  } catch {
    // Markup the converter cannot walk is kept whole, as sanitized HTML: an import never fails on a body.
    notes.keptHtml++;
    return sanitizeHtml(prepared)
      .replace(/\n\s*\n/g, '\n')
      .trim();
  }
}

/**
 * The notes of the footnotes block as Markdown definitions, numbered as the body refers to them.
 * A note the body no longer refers to is not among them (WordPress does not show it either).
 */
function footnoteDefinitions(notes: ContentNotes, footnotes: ImportFootnote[]): string {
  const lines = notes.footnotes.flatMap((id, i) => {
    const note = footnotes.find((n) => n.id === id);
    if (!note) return [];
    const text = converter
      .turndown(note.html)
      .replace(/\s*\n\s*/g, ' ')
      .trim();
    return [`[^${i + 1}]: ${text || '…'}`];
  });
  return lines.length ? `\n\n${lines.join('\n')}` : '';
}

const textParser = unified().use(rehypeParse, { fragment: true });

/** The text of an HTML fragment, entities decoded and whitespace collapsed (titles, excerpts, comments). */
export function htmlToText(html: string): string {
  const parts: string[] = [];
  const walk = (node: Root | RootContent) => {
    if (node.type === 'text') parts.push(node.value);
    else if (node.type === 'element' || node.type === 'root') {
      if (node.type === 'element' && ['script', 'style'].includes((node as Element).tagName)) return;
      if (node.type === 'element' && ['p', 'br', 'div', 'li'].includes((node as Element).tagName))
        parts.push('\n');
      for (const child of node.children) walk(child);
    }
  };
  walk(textParser.parse(html));
  return parts
    .join('')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}
