import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { IMAGE_VARIANTS } from './messages.ts';
import type { UploadStorage } from './storage.ts';
import { BODY_IMAGE_WIDTHS, bodyVariantFileName, variantFileName } from './variant-names.ts';

/**
 * Writes the WebP variants of an upload (cropped to the guide's ratios) to the same storage.
 * Idempotent: a retried job rewrites the same objects.
 */
export async function makeVariants(storage: UploadStorage, fileName: string): Promise<string[]> {
  const original = await storage.get(fileName);
  if (!original) throw new Error(`Upload ${fileName} is not in the ${storage.kind} storage`);
  // Originals are at most 10 MB and sharp decodes the whole image anyway.
  const input = await buffer(original.body);
  const written: string[] = [];
  for (const { width, height } of IMAGE_VARIANTS) {
    const name = variantFileName(fileName, width, height);
    const webp = await sharp(input, { animated: false })
      .resize(width, height, { fit: 'cover', withoutEnlargement: false })
      .webp({ quality: 80 })
      .toBuffer();
    await storage.put(name, webp, 'image/webp');
    written.push(name);
  }
  const { width } = await sharp(input, { animated: false }).metadata();
  if (width) written.push(...(await makeBodyVariants(storage, fileName, input, width)));
  return written;
}

/** The body variants of an image `width` wide: its own proportions, at each narrower body width. */
export async function makeBodyVariants(
  storage: UploadStorage,
  fileName: string,
  input: Buffer,
  width: number,
): Promise<string[]> {
  const written: string[] = [];
  for (const bodyWidth of BODY_IMAGE_WIDTHS.filter((w) => w < width)) {
    const name = bodyVariantFileName(fileName, bodyWidth);
    const webp = await sharp(input, { animated: false })
      .resize({ width: bodyWidth })
      .webp({ quality: 80 })
      .toBuffer();
    await storage.put(name, webp, 'image/webp');
    written.push(name);
  }
  return written;
}
