/** What each toolbar button inserts (SPEC §2 post editor), applied around the selection. */
export const TEXT_COLOURS = [
  { name: 'Default', value: 'inherit' },
  { name: 'Red', value: '#dc2626' },
  { name: 'Blue', value: '#2563eb' },
  { name: 'Green', value: '#16a34a' },
  { name: 'Purple', value: '#9333ea' },
  { name: 'Orange', value: '#ea580c' },
  { name: 'Gray', value: '#6b7280' },
] as const;

export type Edit = { text: string; selectionStart: number; selectionEnd: number };

/** Wraps the selection (or a placeholder) in before/after and selects the wrapped text. */
export function wrap(
  text: string,
  start: number,
  end: number,
  before: string,
  after: string,
  placeholder: string,
): Edit {
  const inner = text.slice(start, end) || placeholder;
  const next = text.slice(0, start) + before + inner + after + text.slice(end);
  return {
    text: next,
    selectionStart: start + before.length,
    selectionEnd: start + before.length + inner.length,
  };
}

/** Starts the current line with a heading marker (replacing an existing one). */
export function heading(text: string, start: number, level: 1 | 2 | 3): Edit {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', start) === -1 ? text.length : text.indexOf('\n', start);
  const line = text.slice(lineStart, lineEnd).replace(/^#{1,6}\s*/, '');
  const marker = `${'#'.repeat(level)} `;
  const content = line || 'Heading';
  const next = text.slice(0, lineStart) + marker + content + text.slice(lineEnd);
  return {
    text: next,
    selectionStart: lineStart + marker.length,
    selectionEnd: lineStart + marker.length + content.length,
  };
}

/** Inserts a snippet at the cursor (replacing the selection), on its own line for block markers. */
export function insert(text: string, start: number, end: number, snippet: string, block = false): Edit {
  const before = text.slice(0, start);
  const lead = block && before !== '' && !before.endsWith('\n') ? '\n' : '';
  const trail = block ? '\n' : '';
  const next = before + lead + snippet + trail + text.slice(end);
  const caret = start + lead.length + snippet.length + trail.length;
  return { text: next, selectionStart: caret, selectionEnd: caret };
}

export const bold = (t: string, s: number, e: number) => wrap(t, s, e, '**', '**', 'bold text');
export const italic = (t: string, s: number, e: number) => wrap(t, s, e, '*', '*', 'italic text');
export const underline = (t: string, s: number, e: number) => wrap(t, s, e, '<u>', '</u>', 'underlined text');
export const colour = (t: string, s: number, e: number, value: string) =>
  wrap(t, s, e, `<span style="color: ${value}">`, '</span>', 'coloured text');
export const image = (url: string, alt = 'image') => `![${alt.replace(/[[\]]/g, '')}](${url})`;
export const youtubeMarker = (id: string) => `[youtube:${id}]`;
export const podcastMarker = (url: string) => `[podcast:${url}]`;
export const productMarker = (id: number) => `[product:${id}]`;
/** A Markdown link around the selection (or a placeholder to type over). */
export const link = (t: string, s: number, e: number, url: string) =>
  wrap(t, s, e, '[', `](${url.replace(/[()\s]/g, encodeURIComponent)})`, 'link text');
