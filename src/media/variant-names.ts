import { IMAGE_VARIANTS } from './messages.ts';

export type ImageVariantName = (typeof IMAGE_VARIANTS)[number]['name'];

/** The stored name of one variant: `<name>-<width>x<height>.webp` beside the original. */
export function variantFileName(fileName: string, width: number, height: number): string {
  return `${fileName.replace(/\.[^./]+$/, '')}-${width}x${height}.webp`;
}

/**
 * The URL of an upload's WebP variant (`/uploads/<name>.<ext>` → `/uploads/<name>-1200x630.webp`),
 * or null for an image that is not an upload (a web address, the demo's pictures).
 */
export function uploadVariantUrl(src: string, variant: ImageVariantName): string | null {
  const match = /^\/uploads\/([a-f0-9]{32}\.(?:jpg|png|webp|gif))$/.exec(src);
  if (!match) return null;
  const { width, height } = IMAGE_VARIANTS.find((v) => v.name === variant) ?? IMAGE_VARIANTS[0];
  return `/uploads/${variantFileName(match[1], width, height)}`;
}

/**
 * The widths a post body's image is also stored at (WebP, its own proportions): a phone takes the
 * narrow one, a desktop column at 2x the wide one. Only those narrower than the original exist.
 */
export const BODY_IMAGE_WIDTHS = [640, 1280] as const;

/** An upload's file name in a URL or in Markdown: `/uploads/<32 hex>.<ext>`. */
export const UPLOAD_PATH = /\/uploads\/([a-f0-9]{32}\.(?:jpg|png|webp|gif))\b/g;

/** The stored name of a body variant: `<name>-w<width>.webp` beside the original. */
export function bodyVariantFileName(fileName: string, width: number): string {
  return `${fileName.replace(/\.[^./]+$/, '')}-w${width}.webp`;
}
