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
