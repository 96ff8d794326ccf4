import type { ImageSize } from '../media/upload-sizes.ts';
import { renderMarkdown } from './markdown.ts';
import type { PostVisibility } from './post-schema.ts';

/**
 * What a reader may read, as the session says: signed in or not, and a paid tier (paid, comped,
 * or past due within the grace period). `full` is the writers' own view (admins, the preview).
 */
export type ReaderAccess = { signedIn: boolean; paidTierId: number | null; full?: boolean };

export const ANONYMOUS: ReaderAccess = { signedIn: false, paidTierId: null };
export const FULL_ACCESS: ReaderAccess = { signedIn: true, paidTierId: null, full: true };

/** The line that ends a gated post's public preview. */
const PAYWALL_LINE = /^[ \t]*\[paywall\][ \t]*$/im;

/** The Markdown without its paywall line: what a reader with access reads. */
export function withoutPaywallLine(markdown: string): string {
  return markdown.replace(PAYWALL_LINE, '');
}

/** The public preview: everything before the `[paywall]` line, or the first paragraph without one. */
export function previewMarkdown(markdown: string): string {
  const marker = PAYWALL_LINE.exec(markdown);
  if (marker) return markdown.slice(0, marker.index).trimEnd();
  return (
    markdown
      .split(/\n[ \t]*\n/)
      .map((block) => block.trim())
      .find(Boolean) ?? ''
  );
}

/** The columns a gated post stores besides its whole body; a public post stores none. */
export function previewColumns(
  markdown: string,
  visibility: PostVisibility,
  sizes?: Map<string, ImageSize>,
): { preview_content: string | null; preview_html: string | null } {
  if (visibility === 'public') return { preview_content: null, preview_html: null };
  const preview = previewMarkdown(markdown);
  return { preview_content: preview, preview_html: renderMarkdown(preview, sizes) };
}

/** Whether this reader gets the whole post. */
export function canRead(
  post: { visibility: PostVisibility; visibilityTiers: number[] },
  access: ReaderAccess,
): boolean {
  if (access.full || post.visibility === 'public') return true;
  if (post.visibility === 'members') return access.signedIn;
  if (access.paidTierId === null) return false;
  return post.visibilityTiers.length === 0 || post.visibilityTiers.includes(access.paidTierId);
}

/** The key part of a cached page or answer that depends on the reader's access. */
export function accessKey(access: ReaderAccess): string {
  if (access.full) return 'w';
  if (!access.signedIn) return 'a';
  return access.paidTierId === null ? 'f' : `p${access.paidTierId}`;
}
