import { stat } from 'node:fs/promises';
import path from 'node:path';

/** The byte size of a local audio file for a podcast enclosure (0 when unknown or remote). */
export async function localFileSize(url: string): Promise<number> {
  if (!url.startsWith('/') || url.includes('..')) return 0;
  const candidates = [path.resolve('public', `.${url}`), path.resolve('build/client', `.${url}`)];
  for (const file of candidates) {
    const info = await stat(file).catch(() => null);
    if (info?.isFile()) return info.size;
  }
  return 0;
}
