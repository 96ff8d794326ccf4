import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { Db } from '../db/knex.ts';
import type { UploadStorage } from './storage.ts';
import { type ImageSize, recordUploadSize } from './upload-sizes.ts';
import { makeBodyVariants } from './variants.ts';

/**
 * An upload stored before its size was recorded: measured from the stored original, recorded,
 * and given its body variants. Null when the original is gone or does not decode.
 */
export async function measureUpload(
  db: Db,
  storage: UploadStorage,
  fileName: string,
): Promise<ImageSize | null> {
  const original = await storage.get(fileName);
  if (!original) return null;
  const input = await buffer(original.body);
  const { width, height } = await sharp(input, { animated: false })
    .metadata()
    .catch(() => ({ width: undefined, height: undefined }));
  if (!width || !height) return null;
  await makeBodyVariants(storage, fileName, input, width);
  await recordUploadSize(db, fileName, { width, height });
  return { width, height };
}
