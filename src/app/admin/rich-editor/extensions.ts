import { Extension, Mark, Node } from '@tiptap/core';
import { TableKit } from '@tiptap/extension-table';
import { ReactNodeViewRenderer } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { TEXT_COLOURS } from '../markdown-toolbar.ts';
import {
  BookmarkCardView,
  CalloutCardView,
  EmbedCardView,
  GalleryCardView,
  ImageCardView,
  MarkdownCardView,
  PaywallCardView,
} from './cards.tsx';
import { CodeHighlight } from './code-highlight.ts';

const BLOCKS = [
  'paragraph',
  'heading',
  'bulletList',
  'orderedList',
  'blockquote',
  'codeBlock',
  'horizontalRule',
  'markdownCard',
  'embedCard',
  'imageCard',
  'calloutCard',
  'galleryCard',
  'bookmarkCard',
  'paywallCard',
  'table',
];

/** The text around a block in the stored Markdown: kept so an untouched post writes back unchanged. */
const MarkdownSpacing = Extension.create({
  name: 'markdownSpacing',
  addGlobalAttributes() {
    const spacing = { default: null, rendered: false, keepOnSplit: false };
    return [
      { types: BLOCKS, attributes: { mdBefore: spacing, mdAfter: spacing } },
      // A table's column alignment, from its delimiter row (`:---`, `---:`, `:---:`).
      { types: ['table'], attributes: { mdAlign: { default: [], rendered: false } } },
    ];
  },
});

const COLOUR_VALUES = new Set<string>(TEXT_COLOURS.map((c) => c.value));

/** Today's text colours (a <span style="color: …"> in Markdown); pasted colours of others are dropped. */
const Colour = Mark.create({
  name: 'colour',
  addAttributes() {
    return { value: { default: null, rendered: false } };
  },
  parseHTML() {
    return [
      {
        tag: 'span[style]',
        getAttrs: (element) => {
          const value =
            element
              .getAttribute('style')
              ?.match(/^color:\s*([^;]+);?$/)?.[1]
              .trim() ?? '';
          return COLOUR_VALUES.has(value) ? { value } : false;
        },
      },
    ];
  },
  renderHTML({ mark }) {
    return ['span', { style: `color: ${mark.attrs.value}` }, 0];
  },
});

/** A footnote's mark in the text ([^1] in Markdown); its note is a Markdown card ([^1]: …). */
const FootnoteRef = Node.create({
  name: 'footnoteRef',
  group: 'inline',
  inline: true,
  atom: true,
  addAttributes() {
    return { label: { default: '1', rendered: false } };
  },
  parseHTML() {
    return [{ tag: 'sup[data-footnote]', getAttrs: (el) => ({ label: el.getAttribute('data-footnote') }) }];
  },
  renderHTML({ node }) {
    return ['sup', { 'data-footnote': node.attrs.label, class: 'editor-footnote' }, `[${node.attrs.label}]`];
  },
});

/** A block kept as its Markdown source: what the editor has no node for (tables, footnotes, HTML). */
const MarkdownCard = Node.create({
  name: 'markdownCard',
  group: 'block',
  atom: true,
  addAttributes() {
    return { source: { default: '', rendered: false } };
  },
  parseHTML() {
    return [{ tag: 'div[data-markdown-card]', getAttrs: (el) => ({ source: el.textContent ?? '' }) }];
  },
  renderHTML({ node }) {
    return ['div', { 'data-markdown-card': '' }, node.attrs.source];
  },
  addNodeView() {
    return ReactNodeViewRenderer(MarkdownCardView);
  },
});

/** A [youtube:…], [podcast:…] or [product:…] marker, shown as the card it becomes. */
const EmbedCard = Node.create({
  name: 'embedCard',
  group: 'block',
  atom: true,
  addAttributes() {
    return { kind: { default: 'youtube', rendered: false }, value: { default: '', rendered: false } };
  },
  parseHTML() {
    return [{ tag: 'div[data-embed-card]' }];
  },
  renderHTML() {
    return ['div', { 'data-embed-card': '' }];
  },
  addNodeView() {
    return ReactNodeViewRenderer(EmbedCardView);
  },
});

/** An image on its own line (a figure on the page). */
const ImageCard = Node.create({
  name: 'imageCard',
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes() {
    return {
      src: { default: '', rendered: false },
      alt: { default: '', rendered: false },
      caption: { default: '', rendered: false },
      width: { default: 'normal', rendered: false },
    };
  },
  parseHTML() {
    return [
      {
        tag: 'img[src]',
        getAttrs: (el) => {
          const src = el.getAttribute('src') ?? '';
          // Pasted images from elsewhere are not ours to keep: only our uploads and web addresses.
          return /^(https:\/\/|\/uploads\/)/.test(src) ? { src, alt: el.getAttribute('alt') ?? '' } : false;
        },
      },
    ];
  },
  renderHTML({ node }) {
    return ['img', { src: node.attrs.src, alt: node.attrs.alt }];
  },
  addNodeView() {
    return ReactNodeViewRenderer(ImageCardView);
  },
});

/** A callout: an emoji and a line of text (a one-line quote opening with the emoji in Markdown). */
const CalloutCard = Node.create({
  name: 'calloutCard',
  group: 'block',
  atom: true,
  addAttributes() {
    return { emoji: { default: '💡', rendered: false }, text: { default: '', rendered: false } };
  },
  parseHTML() {
    return [{ tag: 'div[data-callout-card]' }];
  },
  renderHTML() {
    return ['div', { 'data-callout-card': '' }];
  },
  addNodeView() {
    return ReactNodeViewRenderer(CalloutCardView);
  },
});

/** Images side by side: two or more on one line in Markdown. */
const GalleryCard = Node.create({
  name: 'galleryCard',
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes() {
    return { images: { default: [], rendered: false } };
  },
  parseHTML() {
    return [{ tag: 'div[data-gallery-card]' }];
  },
  renderHTML() {
    return ['div', { 'data-gallery-card': '' }];
  },
  addNodeView() {
    return ReactNodeViewRenderer(GalleryCardView);
  },
});

/** A link to a page with its title, description and image, read by the server (a quote in Markdown). */
const BookmarkCard = Node.create({
  name: 'bookmarkCard',
  group: 'block',
  atom: true,
  draggable: true,
  addAttributes() {
    const text = { default: '', rendered: false };
    return { url: text, title: text, description: text, publisher: text, image: text };
  },
  parseHTML() {
    return [{ tag: 'div[data-bookmark-card]' }];
  },
  renderHTML() {
    return ['div', { 'data-bookmark-card': '' }];
  },
  addNodeView() {
    return ReactNodeViewRenderer(BookmarkCardView);
  },
});

/** Where a members' post's public preview ends: `[paywall]` on a line of its own in Markdown. */
const PaywallCard = Node.create({
  name: 'paywallCard',
  group: 'block',
  atom: true,
  draggable: true,
  parseHTML() {
    return [{ tag: 'div[data-paywall-card]' }];
  },
  renderHTML() {
    return ['div', { 'data-paywall-card': '' }];
  },
  addNodeView() {
    return ReactNodeViewRenderer(PaywallCardView);
  },
});

/** What the editor allows: pasted HTML is cut down to these nodes and marks by the schema. */
export const extensions = [
  StarterKit.configure({
    link: { openOnClick: false, autolink: false, protocols: ['mailto'] },
    dropcursor: { width: 2 },
  }),
  TableKit.configure({ table: { resizable: false } }),
  Colour,
  FootnoteRef,
  MarkdownCard,
  EmbedCard,
  ImageCard,
  CalloutCard,
  GalleryCard,
  BookmarkCard,
  PaywallCard,
  CodeHighlight,
  MarkdownSpacing,
];
