import path from 'node:path';
import sharp from 'sharp';
import { IMAGE_VARIANTS } from './messages.ts';

/** The stored name of one variant: `<name>-<width>x<height>.webp` beside the original. */
export function variantFileName(fileName: string, width: number, height: number): string {
  return `${path.parse(fileName).name}-${width}x${height}.webp`;
}

/**
 * Writes the WebP variants of an upload (cropped to the guide's ratios). Idempotent: a retried
 * job rewrites the same files.
 */
export async function makeVariants(uploadsDir: string, fileName: string): Promise<string[]> {
  // Only names we generated reach here (the job schema checks the pattern), so no traversal.
  const source = path.join(uploadsDir, path.basename(fileName));
  const written: string[] = [];
  for (const { width, height } of IMAGE_VARIANTS) {
    const name = variantFileName(fileName, width, height);
    await sharp(source, { animated: false })
      .resize(width, height, { fit: 'cover', withoutEnlargement: false })
      .webp({ quality: 80 })
      .toFile(path.join(uploadsDir, name));
    written.push(name);
  }
  return written;
}
