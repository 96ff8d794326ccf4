import { text } from 'node:stream/consumers';
import yauzl from 'yauzl';
import { ImportError } from './types.ts';

/** A file read out of an export zip whole (a CSV, one post's HTML) may unpack to at most this. */
export const MAX_ZIP_ENTRY_BYTES = 50 * 1024 * 1024;

/** An open zip archive: its file names (the central directory), and each file read on demand. */
export type ZipArchive = {
  names: string[];
  has(name: string): boolean;
  /** The file as UTF-8 text; refused over MAX_ZIP_ENTRY_BYTES (a zip bomb never unpacks). */
  read(name: string): Promise<string>;
  close(): void;
};

const notZip = (reason: string) =>
  new ImportError(
    `The file is not a readable zip archive: ${reason.replace(/\.+$/, '')}. Nothing was imported.`,
  );

/**
 * Opens a zip and lists its files without unpacking any: one post is unpacked at a time, so an
 * export of any size is read within the same memory. yauzl refuses entry names that leave the
 * archive (absolute, '..') and checks each entry's size against the directory as it unpacks.
 */
export async function openZip(path: string): Promise<ZipArchive> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, opened) =>
      error ? reject(notZip(error.message)) : resolve(opened),
    ),
  );
  const entries = new Map<string, yauzl.Entry>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', (error: Error) => reject(notZip(error.message)));
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  return {
    names: [...entries.keys()],
    has: (name) => entries.has(name),
    async read(name) {
      const entry = entries.get(name);
      if (!entry) throw new ImportError(`The zip has no file ${name}. Nothing was imported.`);
      if (entry.uncompressedSize > MAX_ZIP_ENTRY_BYTES)
        throw new ImportError(
          `${name} in the zip unpacks to ${Math.round(entry.uncompressedSize / 1024 / 1024)} MB; files over ${MAX_ZIP_ENTRY_BYTES / 1024 / 1024} MB are refused.`,
        );
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(entry, (error, opened) =>
          error ? reject(notZip(error.message)) : resolve(opened),
        ),
      );
      try {
        return await text(stream);
      } catch (error) {
        throw notZip(`${name}: ${(error as Error).message}`);
      }
    },
    close: () => zip.close(),
  };
}
