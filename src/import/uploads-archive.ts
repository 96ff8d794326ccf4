import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { UploadStorage } from '../media/storage.ts';

/**
 * Every upload (originals and variants) as a gzipped tar under `uploads/`, and with privateFiles
 * (the scheduled backup's) the downloadable products' files under `private/`, streamed: one file
 * is read at a time and the archive is written as the client takes it, never held whole. A
 * storage error ends the stream with that error, so the download is cut rather than silently
 * incomplete.
 */
export function uploadsArchive(storage: UploadStorage, privateFiles?: UploadStorage): Readable {
  const pack = tar.pack();
  const out = new PassThrough();
  const add = async (area: string, from: UploadStorage) => {
    for await (const name of from.list()) {
      const object = await from.get(name);
      if (!object) continue;
      const entry = pack.entry({ name: `${area}/${name}`, size: object.size, mtime: object.lastModified });
      await pipeline(object.body, entry);
    }
  };
  const fill = async () => {
    await add('uploads', storage);
    if (privateFiles) await add('private', privateFiles);
    pack.finalize();
  };
  fill().catch((error: Error) => pack.destroy(error));
  pipeline(pack, createGzip(), out).catch((error: Error) => out.destroy(error));
  return out;
}
