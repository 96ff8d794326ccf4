/**
 * The audio address of a [podcast:URL] marker as the renderer reads it (src/blog/markdown.ts) and
 * the rich editor loads it as a card: one pattern, so what the editor accepts is what renders.
 */
const PODCAST_URL = String.raw`(?:https?:\/\/|\/)[^\s\]"<>]+`;

export const PODCAST_MARKER = new RegExp(String.raw`\[podcast:(${PODCAST_URL})\]`, 'g');
export const PODCAST_MARKER_LINE = new RegExp(String.raw`^\[podcast:(${PODCAST_URL})\]$`);

const WHOLE_URL = new RegExp(`^${PODCAST_URL}$`);

export function isPodcastUrl(value: string): boolean {
  return WHOLE_URL.test(value);
}
