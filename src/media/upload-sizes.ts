import type { Db } from '../db/knex.ts';
import { UPLOAD_PATH } from './variant-names.ts';

export type ImageSize = { width: number; height: number };

/** The uploads a text (Markdown or HTML) shows, by file name, each once. */
export function uploadsIn(text: string): string[] {
  return [...new Set([...text.matchAll(UPLOAD_PATH)].map((m) => m[1]))];
}

export async function recordUploadSize(db: Db, fileName: string, size: ImageSize): Promise<void> {
  await db('upload_sizes')
    .insert({ file_name: fileName, ...size })
    .onConflict('file_name')
    .merge();
}

/** The recorded sizes of these uploads; an upload stored before sizes were recorded is missing. */
export async function uploadSizes(db: Db, fileNames: string[]): Promise<Map<string, ImageSize>> {
  if (fileNames.length === 0) return new Map();
  const rows: { file_name: string; width: number; height: number }[] = await db('upload_sizes').whereIn(
    'file_name',
    fileNames,
  );
  return new Map(rows.map((r) => [r.file_name, { width: r.width, height: r.height }]));
}
