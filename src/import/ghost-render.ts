import { renderMarkdown } from '../blog/markdown.ts';
import { escapeHtml } from '../kernel/escape.ts';

/**
 * Ghost posts saved without `html` keep only their editor document: Lexical (Ghost 5–6) or
 * Mobiledoc (Ghost 1–4). These render the common nodes and cards to HTML for the usual
 * HTML → Markdown conversion; an unknown card keeps its text and adds a warning.
 */

type Node = Record<string, unknown> & { children?: Node[] };

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** Where Ghost's HTML (and its paywall card) ends a members' or paid post's public preview. */
export const MEMBERS_ONLY = '<!--members-only-->';

/** A card both editors share by name and payload fields; null when the card is unknown. */
function card(name: string, payload: Record<string, unknown>): string | null {
  switch (name) {
    case 'image': {
      const caption = str(payload.caption);
      const img = `<img src="${escapeHtml(str(payload.src))}" alt="${escapeHtml(str(payload.alt))}">`;
      return caption ? `<figure>${img}<figcaption>${caption}</figcaption></figure>` : img;
    }
    case 'code':
    case 'codeblock': {
      const language = str(payload.language);
      const cls = language ? ` class="language-${escapeHtml(language)}"` : '';
      return `<pre><code${cls}>${escapeHtml(str(payload.code))}</code></pre>`;
    }
    case 'embed':
      // The stored embed HTML carries the YouTube iframe the content converter turns into a marker.
      return (
        str(payload.html) ||
        (str(payload.url)
          ? `<p><a href="${escapeHtml(str(payload.url))}">${escapeHtml(str(payload.url))}</a></p>`
          : '')
      );
    case 'hr':
    case 'horizontalrule':
      return '<hr>';
    case 'html':
      return str(payload.html);
    case 'markdown':
    case 'card-markdown':
      return renderMarkdown(str(payload.markdown));
    case 'paywall':
      // Ghost's own rendering of its paywall card: the public preview ends here.
      return MEMBERS_ONLY;
    default:
      return null;
  }
}

const FORMATS: [number, string][] = [
  [16, 'code'],
  [1, 'strong'],
  [2, 'em'],
  [4, 's'],
  [8, 'u'],
];

function lexicalText(node: Node): string {
  const format = Number(node.format) || 0;
  return FORMATS.reduce(
    (html, [bit, tag]) => (format & bit ? `<${tag}>${html}</${tag}>` : html),
    escapeHtml(str(node.text)),
  );
}

function lexicalNode(node: Node, warnings: string[]): string {
  const inner = () => (node.children ?? []).map((child) => lexicalNode(child, warnings)).join('');
  switch (node.type) {
    case 'root':
      return inner();
    case 'text':
    case 'extended-text':
      return lexicalText(node);
    case 'linebreak':
      return '<br>';
    case 'paragraph':
      return `<p>${inner()}</p>`;
    case 'heading':
    case 'extended-heading': {
      const tag = /^h[1-6]$/.test(str(node.tag)) ? str(node.tag) : 'h2';
      return `<${tag}>${inner()}</${tag}>`;
    }
    case 'list':
      return node.listType === 'number' || node.tag === 'ol' ? `<ol>${inner()}</ol>` : `<ul>${inner()}</ul>`;
    case 'listitem':
      return `<li>${inner()}</li>`;
    case 'quote':
    case 'extended-quote':
    case 'aside':
      return `<blockquote>${inner()}</blockquote>`;
    case 'link':
    case 'autolink':
      return `<a href="${escapeHtml(str(node.url))}">${inner()}</a>`;
    default: {
      const html = card(str(node.type), node);
      if (html !== null) return html;
      warnings.push(`unknown Ghost card '${str(node.type)}': imported as its text`);
      const text = node.children ? inner() : escapeHtml(str(node.text) || str(node.caption));
      return text ? `<p>${text}</p>` : '';
    }
  }
}

/** A Lexical document (Ghost 5–6) as HTML. */
export function lexicalToHtml(json: string, warnings: string[]): string {
  const doc = JSON.parse(json) as { root?: Node };
  return doc.root ? lexicalNode(doc.root, warnings) : '';
}

type Mobiledoc = {
  atoms?: [string, string, unknown][];
  cards?: [string, Record<string, unknown>][];
  markups?: [string, string[]?][];
  sections?: unknown[][];
};

/** Markers: [0 text | 1 atom, markups opened, markups closed, value]; open tags close innermost first. */
function mobiledocMarkers(markers: unknown[][], doc: Mobiledoc): string {
  const open: string[] = [];
  let html = '';
  for (const [kind, opens, closes, value] of markers as [number, number[], number, unknown][]) {
    for (const index of opens) {
      const [tag, attrs = []] = doc.markups?.[index] ?? ['span'];
      const pairs: string[] = [];
      for (let i = 0; i + 1 < attrs.length; i += 2) pairs.push(` ${attrs[i]}="${escapeHtml(attrs[i + 1])}"`);
      html += `<${tag}${pairs.join('')}>`;
      open.push(tag);
    }
    html += kind === 1 ? escapeHtml(str(doc.atoms?.[value as number]?.[1])) : escapeHtml(str(value));
    for (let i = 0; i < closes; i++) html += `</${open.pop()}>`;
  }
  return html;
}

/** A Mobiledoc document (Ghost 1–4) as HTML. */
export function mobiledocToHtml(json: string, warnings: string[]): string {
  const doc = JSON.parse(json) as Mobiledoc;
  return (doc.sections ?? [])
    .map((section) => {
      const [type, a, b] = section as [number, unknown, unknown];
      if (type === 1) {
        const tag = /^(p|h[1-6]|blockquote|aside|pull-quote)$/i.test(str(a)) ? str(a).toLowerCase() : 'p';
        const block = tag === 'aside' || tag === 'pull-quote' ? 'blockquote' : tag;
        return `<${block}>${mobiledocMarkers(b as unknown[][], doc)}</${block}>`;
      }
      if (type === 2) return `<img src="${escapeHtml(str(a))}" alt="">`;
      if (type === 3) {
        const items = (b as unknown[][][]).map((markers) => `<li>${mobiledocMarkers(markers, doc)}</li>`);
        return a === 'ol' ? `<ol>${items.join('')}</ol>` : `<ul>${items.join('')}</ul>`;
      }
      if (type === 10) {
        const [name, payload = {}] = doc.cards?.[a as number] ?? ['', {}];
        const html = card(name, payload);
        if (html !== null) return html;
        warnings.push(`unknown Ghost card '${name}': imported as its text`);
        const text = str(payload.caption) || str(payload.text);
        return text ? `<p>${escapeHtml(text)}</p>` : '';
      }
      return '';
    })
    .join('');
}
