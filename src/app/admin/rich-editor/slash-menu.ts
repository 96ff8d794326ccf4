import type { Editor } from '@tiptap/core';
import { type Ask, QUESTIONS } from '../post-editor/AskDialog.tsx';
import type { ProductChoice } from '../post-editor/MarkdownToolbar.tsx';

export type SlashItem = { id: string; label: string; run: (editor: Editor, ask: Ask) => void };

/** A `/` typed at the start of a paragraph or after a space, and what follows it: the menu's filter. */
export type SlashQuery = { query: string; from: number; to: number };

export function slashQuery(editor: Editor): SlashQuery | null {
  const { $from, empty } = editor.state.selection;
  if (!empty || $from.parent.type.name !== 'paragraph') return null;
  const before = $from.parent.textBetween(0, $from.parentOffset, undefined, '\ufffc');
  const match = /(?:^|\s)\/([\w ]{0,24})$/.exec(before);
  if (!match) return null;
  return { query: match[1].trim().toLowerCase(), from: $from.pos - match[1].length - 1, to: $from.pos };
}

function embed(editor: Editor, kind: 'youtube' | 'podcast' | 'product', value: string) {
  editor.chain().focus().insertContent({ type: 'embedCard', attrs: { kind, value } }).run();
}

/** A card that asks first: inserted with the answer, nothing when the writer cancels. */
async function askAndEmbed(editor: Editor, ask: Ask, kind: 'youtube' | 'podcast') {
  const answer = await ask(QUESTIONS[kind]);
  if (answer !== null) embed(editor, kind, answer);
}

/** A footnote mark at the cursor, and its note (a Markdown card) at the end of the post. */
function addFootnote(editor: Editor) {
  const labels: number[] = [];
  editor.state.doc.descendants((node) => {
    if (node.type.name === 'footnoteRef') labels.push(Number(node.attrs.label) || 0);
  });
  const label = String(Math.max(0, ...labels) + 1);
  editor
    .chain()
    .focus()
    .insertContent({ type: 'footnoteRef', attrs: { label } })
    .command(({ tr, state }) => {
      tr.insert(tr.doc.content.size, state.schema.nodes.markdownCard.create({ source: `[^${label}]: ` }));
      return true;
    })
    .run();
}

/** What the `/` menu and the + button insert. */
export function slashItems(products: ProductChoice[], pickImage: () => void): SlashItem[] {
  return [
    { id: 'heading2', label: 'Heading', run: (e) => e.chain().focus().setHeading({ level: 2 }).run() },
    { id: 'heading3', label: 'Subheading', run: (e) => e.chain().focus().setHeading({ level: 3 }).run() },
    { id: 'bullets', label: 'Bulleted list', run: (e) => e.chain().focus().toggleBulletList().run() },
    { id: 'numbers', label: 'Numbered list', run: (e) => e.chain().focus().toggleOrderedList().run() },
    { id: 'quote', label: 'Quote', run: (e) => e.chain().focus().toggleBlockquote().run() },
    { id: 'code', label: 'Code block', run: (e) => e.chain().focus().toggleCodeBlock().run() },
    {
      id: 'table',
      label: 'Table',
      run: (e) => e.chain().focus().insertTable({ rows: 3, cols: 2, withHeaderRow: true }).run(),
    },
    {
      id: 'callout',
      label: 'Callout',
      run: (e) =>
        e
          .chain()
          .focus()
          .insertContent({ type: 'calloutCard', attrs: { emoji: '💡', text: '' } })
          .run(),
    },
    { id: 'divider', label: 'Divider', run: (e) => e.chain().focus().setHorizontalRule().run() },
    {
      id: 'paywall',
      label: 'Paywall',
      run: (e) => e.chain().focus().insertContent({ type: 'paywallCard' }).run(),
    },
    { id: 'image', label: 'Image', run: () => pickImage() },
    {
      id: 'gallery',
      label: 'Gallery',
      run: (e) =>
        e
          .chain()
          .focus()
          .insertContent({ type: 'galleryCard', attrs: { images: [] } })
          .run(),
    },
    {
      id: 'bookmark',
      label: 'Bookmark',
      run: (e) => e.chain().focus().insertContent({ type: 'bookmarkCard', attrs: {} }).run(),
    },
    {
      id: 'youtube',
      label: 'YouTube video',
      run: (e, ask) => void askAndEmbed(e, ask, 'youtube'),
    },
    {
      id: 'podcast',
      label: 'Podcast episode',
      run: (e, ask) => void askAndEmbed(e, ask, 'podcast'),
    },
    ...products.map((product) => ({
      id: `product-${product.id}`,
      label: `Product: ${product.name}`,
      run: (e: Editor) => embed(e, 'product', String(product.id)),
    })),
    { id: 'footnote', label: 'Footnote', run: addFootnote },
    {
      id: 'markdown',
      label: 'Markdown or HTML card',
      run: (e) =>
        e
          .chain()
          .focus()
          .insertContent({ type: 'markdownCard', attrs: { source: '' } })
          .run(),
    },
  ];
}

export function filterItems(items: SlashItem[], query: string): SlashItem[] {
  return items.filter((item) => item.label.toLowerCase().includes(query));
}
