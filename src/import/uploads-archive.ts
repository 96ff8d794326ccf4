import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { UploadStorage } from '../media/storage.ts';

/**
 * Every upload (originals and variants) as a gzipped tar, streamed: one file is read at a time
 * and the archive is written as the client takes it, never held whole. A storage error ends the
 * stream with that error, so the download is cut rather than silently incomplete.
 */
export function uploadsArchive(storage: UploadStorage): Readable {
  const pack = tar.pack();
  const out = new PassThrough();
  const fill = async () => {
    for await (const name of storage.list()) {
      const object = await storage.get(name);
      if (!object) continue;
      const entry = pack.entry({ name: `uploads/${name}`, size: object.size, mtime: object.lastModified });
      await pipeline(object.body, entry);
    }
    pack.finalize();
  };
  fill().catch((error: Error) => pack.destroy(error));
  pipeline(pack, createGzip(), out).catch((error: Error) => out.destroy(error));
  return out;
}
