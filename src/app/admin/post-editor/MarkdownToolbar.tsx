import type { ReactNode } from 'react';
import {
  bold,
  colour,
  type Edit,
  heading,
  image,
  italic,
  podcastMarker,
  productMarker,
  TEXT_COLOURS,
  underline,
  youtubeMarker,
} from '../markdown-toolbar.ts';
import { type Ask, QUESTIONS, type Question } from './AskDialog.tsx';

/** A product as the editor offers it: its price formatted and its stock as the admin reads it. */
export type ProductChoice = { id: number; name: string; active: boolean; price: string; stock: string };

/** An edit of the content at its selection. */
export type ApplyEdit = (edit: (text: string, start: number, end: number) => Edit) => void;

/** A formatting toolbar button: it edits the content, never submits the form. */
function ToolButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="button button-small button-secondary" onClick={onClick}>
      {children}
    </button>
  );
}

/** The button row over the Markdown textarea: it wraps syntax around the selection or inserts a marker. */
export function MarkdownToolbar({
  apply,
  insertSnippet,
  products,
  ask,
}: {
  apply: ApplyEdit;
  insertSnippet: (snippet: string, block?: boolean) => void;
  products: ProductChoice[];
  ask: Ask;
}) {
  const askAndInsert = async (question: Question, make: (answer: string) => string) => {
    const answer = await ask(question);
    if (answer !== null) insertSnippet(make(answer), true);
  };
  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Formatting" aria-controls="content">
      <ToolButton onClick={() => apply(bold)}>Bold</ToolButton>
      <ToolButton onClick={() => apply(italic)}>Italic</ToolButton>
      <ToolButton onClick={() => apply(underline)}>Underline</ToolButton>
      {([1, 2, 3] as const).map((level) => (
        <ToolButton key={level} onClick={() => apply((t, s) => heading(t, s, level))}>
          H{level}
        </ToolButton>
      ))}
      <ToolButton onClick={() => askAndInsert(QUESTIONS.image, (url) => image(url))}>Image</ToolButton>
      <label className="visually-hidden" htmlFor="text-colour">
        Text colour
      </label>
      <select
        id="text-colour"
        className="editor-colour"
        value=""
        onChange={(e) => {
          const value = e.target.value;
          if (value) apply((t, s, en) => colour(t, s, en, value));
        }}
      >
        <option value="">Colour…</option>
        {TEXT_COLOURS.map((c) => (
          <option key={c.name} value={c.value}>
            {c.name}
          </option>
        ))}
      </select>
      <ToolButton onClick={() => askAndInsert(QUESTIONS.youtube, youtubeMarker)}>YouTube</ToolButton>
      <ToolButton onClick={() => askAndInsert(QUESTIONS.podcast, podcastMarker)}>Podcast</ToolButton>
      <ToolButton onClick={() => askAndInsert(QUESTIONS.gif, (url) => image(url, 'GIF'))}>GIF</ToolButton>
      <label className="visually-hidden" htmlFor="product-picker">
        Insert a product card
      </label>
      <select
        id="product-picker"
        className="editor-colour"
        value=""
        onChange={(e) => {
          const id = e.target.value;
          if (id) insertSnippet(productMarker(Number(id)), true);
        }}
      >
        <option value="">Product…</option>
        {products.map((p) => (
          <option key={p.id} value={p.id}>
            {p.active ? p.name : `${p.name} (inactive)`}
          </option>
        ))}
      </select>
    </div>
  );
}
