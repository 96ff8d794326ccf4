/** The image formats we accept, judged by their first bytes (never by name or declared type). */
export type ImageType = { ext: 'jpg' | 'png' | 'webp' | 'gif'; mime: string };

/** Bytes needed to tell the accepted formats apart. */
export const SNIFF_BYTES = 12;

export function detectImageType(head: Uint8Array): ImageType | null {
  const at = (offset: number, bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  if (at(0, [0xff, 0xd8, 0xff])) return { ext: 'jpg', mime: 'image/jpeg' };
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ext: 'png', mime: 'image/png' };
  if (at(0, [0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61)
    return { ext: 'gif', mime: 'image/gif' };
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50]))
    return { ext: 'webp', mime: 'image/webp' };
  return null;
}
