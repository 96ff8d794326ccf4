import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { type Plugin, unified } from 'unified';
import type { ImageSize } from '../media/upload-sizes.ts';
import { BODY_IMAGE_WIDTHS, bodyVariantFileName, UPLOAD_PATH } from '../media/variant-names.ts';
import { rehypeFigures } from './figures.ts';
import { rehypeCodeBlocks } from './highlight.ts';
import { PODCAST_URL } from './post-schema.ts';

// The sizes of the uploads a body shows travel with the file being rendered.
declare module 'vfile' {
  interface DataMap {
    uploadSizes: globalThis.Map<string, ImageSize>;
  }
}

const YOUTUBE_EMBED = /^https:\/\/www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}$/;

/**
 * A [product:ID] marker is stored as an empty slot; the card (current price and stock) is put in
 * when the page is rendered (src/app/product-cards.server.tsx).
 */
const PRODUCT_SLOT_CLASS = 'product-slot';
export const PRODUCT_SLOT = /<div class="product-slot" data-product="(\d{1,9})"><\/div>/g;
const PRODUCT_MARKER = /\[product:(\d{1,9})\]/g;
const PODCAST_MARKER = new RegExp(String.raw`\[podcast:(${PODCAST_URL})\]`, 'g');

/** The product ids of a rendered post's card slots, each once. */
export function productSlotIds(html: string): number[] {
  return [...new Set([...html.matchAll(PRODUCT_SLOT)].map((m) => Number(m[1])))];
}

/** The product ids a post's Markdown names with [product:ID] markers, each once. */
export function productIdsIn(markdown: string): number[] {
  return [...new Set([...markdown.matchAll(PRODUCT_MARKER)].map((m) => Number(m[1])))].filter((id) => id > 0);
}

/**
 * The allow-list: Markdown's own elements, the editor toolbar's <u> and colour spans, figures, and
 * the embeds our media markers produce (privacy-enhanced YouTube frames and audio players).
 */
const schema: SanitizeSchema = {
  ...defaultSchema,
  clobberPrefix: '',
  tagNames: [...(defaultSchema.tagNames ?? []), 'u', 'span', 'figure', 'figcaption', 'iframe', 'audio'],
  attributes: {
    ...defaultSchema.attributes,
    span: [['style', /^color:\s*(#[0-9a-fA-F]{3,8}|[a-z]+);?$/]],
    div: [
      ['className', 'video-embed', 'audio-embed', PRODUCT_SLOT_CLASS],
      ['dataProduct', /^\d{1,9}$/],
    ],
    img: ['src', 'alt', 'title', 'width', 'height'],
    iframe: [
      ['src', YOUTUBE_EMBED],
      'title',
      'allowFullScreen',
      ['referrerPolicy', 'strict-origin-when-cross-origin'],
    ],
    audio: ['src', ['controls', true], ['preload', 'none']],
    h1: ['id'],
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
    h5: ['id'],
    h6: ['id'],
  },
  protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto'], src: ['http', 'https'] },
};

/** The toolbar's markers become embeds before parsing: [youtube:ID], [podcast:URL], [product:ID]. */
function expandMarkers(markdown: string): string {
  return markdown
    .replace(
      PRODUCT_MARKER,
      (_, id: string) => `\n\n<div class="${PRODUCT_SLOT_CLASS}" data-product="${id}"></div>\n\n`,
    )
    .replace(
      /\[youtube:([A-Za-z0-9_-]{11})\]/g,
      (_, id: string) =>
        `\n\n<div class="video-embed"><iframe src="https://www.youtube-nocookie.com/embed/${id}" title="YouTube video" allowfullscreen referrerpolicy="strict-origin-when-cross-origin"></iframe></div>\n\n`,
    )
    .replace(PODCAST_MARKER, (_, url: string) => {
      return `\n\n<div class="audio-embed"><audio controls preload="none" src="${url}"></audio></div>\n\n`;
    });
}

/** Images and frames load lazily; a frame whose source the sanitizer removed is dropped whole. */
function rehypeLazyMedia() {
  return (tree: Root) => {
    const visit = (node: Root | Element) => {
      node.children = node.children.filter(
        (child) => !(child.type === 'element' && child.tagName === 'iframe' && !child.properties.src),
      ) as typeof node.children;
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        if (child.tagName === 'img') {
          child.properties.loading = 'lazy';
          child.properties.decoding = 'async';
        } else if (child.tagName === 'iframe') {
          child.properties.loading = 'lazy';
        }
        visit(child);
      }
    };
    visit(tree);
  };
}

/** How wide a body image is shown: the reading column (64ch of the reading face), or the screen. */
export const BODY_IMAGE_SIZES = '(max-width: 46rem) calc(100vw - 2rem), 44rem';
/** The same for a wide figure (up to 64rem) and a full one (the screen's width), as blog.css draws them. */
const FIGURE_SIZES: Record<string, string> = {
  'figure-wide': '(max-width: 66rem) calc(100vw - 2rem), 64rem',
  'figure-full': '100vw',
};

/**
 * An upload in a post's body gets what a featured image has: its width and height (nothing shifts
 * while it loads) and its narrower WebP variants in a srcset. Sizes come with the file (`uploadSizes`),
 * recorded at upload; an image without one is left as written.
 */
const rehypeUploadedImages: Plugin<[], Root> = () => {
  return (tree, file) => {
    const sizes = file.data.uploadSizes ?? new Map<string, ImageSize>();
    const visit = (node: Root | Element, imageSizes: string) => {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        const figureClass = child.tagName === 'figure' ? String(child.properties.className ?? '') : '';
        const src = child.tagName === 'img' ? String(child.properties.src ?? '') : '';
        const fileName = new RegExp(`^${UPLOAD_PATH.source}$`).exec(src)?.[1];
        const size = fileName && sizes.get(fileName);
        if (fileName && size) {
          child.properties.width = size.width;
          child.properties.height = size.height;
          const narrower = BODY_IMAGE_WIDTHS.filter((w) => w < size.width);
          if (narrower.length > 0) {
            child.properties.srcSet = [
              ...narrower.map((w) => `/uploads/${bodyVariantFileName(fileName, w)} ${w}w`),
              `${src} ${size.width}w`,
            ].join(', ');
            child.properties.sizes = imageSizes;
          }
        }
        visit(child, FIGURE_SIZES[figureClass] ?? imageSizes);
      }
    };
    visit(tree, BODY_IMAGE_SIZES);
  };
};

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, schema)
  .use(rehypeSlug)
  .use(rehypeFigures)
  .use(rehypeCodeBlocks)
  .use(rehypeLazyMedia)
  .use(rehypeUploadedImages)
  .use(rehypeStringify);

const htmlSanitizer = unified()
  .use(rehypeParse, { fragment: true })
  .use(rehypeSanitize, schema)
  .use(rehypeStringify);

/** An HTML fragment through the editor's allow-list, for HTML kept as is inside Markdown (imports). */
export function sanitizeHtml(html: string): string {
  return String(htmlSanitizer.processSync(html));
}

/** Markdown with the toolbar's inline HTML and media markers → sanitized HTML. Rendered once, on save. */
export function renderMarkdown(markdown: string, uploadSizes: Map<string, ImageSize> = new Map()): string {
  return String(processor.processSync({ value: expandMarkers(markdown), data: { uploadSizes } }));
}

export type Heading = { level: 2 | 3; id: string; text: string };

/** The h2 and h3 headings of rendered HTML, for a table of contents. */
export function extractHeadings(html: string): Heading[] {
  const headings: Heading[] = [];
  for (const match of html.matchAll(/<h([23]) id="([^"]+)">([\s\S]*?)<\/h\1>/g)) {
    const text = match[3]
      .replace(/<[^>]+>/g, '')
      .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
      .trim();
    headings.push({ level: Number(match[1]) as 2 | 3, id: match[2], text });
  }
  return headings;
}
