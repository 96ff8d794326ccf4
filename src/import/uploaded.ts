import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { HttpError } from '../server/middleware.ts';
import type { ImportReport } from './import.ts';
import { IMPORT_MESSAGES, MAX_IMPORT_BYTES } from './messages.ts';
import { ImportError } from './types.ts';

/** What the admin screen shows for one upload: its dry run, or why the file was refused. */
export type UploadState =
  | { status: 'preview'; fileName: string; report: ImportReport }
  | { status: 'refused'; fileName: string; message: string };

const ID = /^[a-f0-9]{24}$/;

/**
 * Uploaded exports wait here for the import job: under the uploads directory but behind a leading
 * dot, which the upload storage never serves. The worker reads the same directory.
 */
export function importDir(uploadsDir: string): string {
  return path.join(uploadsDir, '.imports');
}

export function uploadPath(dir: string, id: string): string {
  if (!ID.test(id)) throw new HttpError(404, 'No such import upload.');
  return path.join(dir, `${id}.upload`);
}

export async function readUploadState(dir: string, id: string): Promise<UploadState | null> {
  if (!ID.test(id)) return null;
  const text = await readFile(path.join(dir, `${id}.json`), 'utf8').catch(() => null);
  return text ? (JSON.parse(text) as UploadState) : null;
}

/** The upload is gone once imported (or refused); its state stays for the screen. */
export async function removeUpload(dir: string, id: string): Promise<void> {
  await rm(uploadPath(dir, id), { force: true });
}

/**
 * Streams the multipart field `file` to a temporary file (never held in memory), cut at
 * MAX_IMPORT_BYTES with a 413, then runs the importer's dry run for the preview. A file the
 * importer refuses is removed and its message kept as the upload's state; nothing is written.
 */
export async function receiveImport(
  req: IncomingMessage,
  dir: string,
  dryRun: (file: string) => Promise<ImportReport>,
): Promise<{ id: string; state: UploadState }> {
  await mkdir(dir, { recursive: true });
  const id = randomBytes(12).toString('hex');
  const file = uploadPath(dir, id);
  const fileName = await new Promise<string>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: MAX_IMPORT_BYTES, files: 1, parts: 4 } });
    } catch {
      reject(new HttpError(400, IMPORT_MESSAGES.noFile));
      return;
    }
    let saw = false;
    const fail = (error: Error) => {
      req.unpipe(parser);
      req.resume();
      reject(error);
    };
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || saw) {
        stream.resume();
        return;
      }
      saw = true;
      let truncated = false;
      stream.on('limit', () => {
        truncated = true;
      });
      pipeline(stream, createWriteStream(file)).then(
        () =>
          truncated
            ? fail(new HttpError(413, IMPORT_MESSAGES.tooLarge))
            : resolve((info.filename ?? '').slice(0, 200) || 'export'),
        fail,
      );
    });
    parser.on('error', () => fail(new HttpError(400, IMPORT_MESSAGES.noFile)));
    parser.on('close', () => {
      if (!saw) fail(new HttpError(400, IMPORT_MESSAGES.noFile));
    });
    req.pipe(parser);
  }).catch(async (error) => {
    await rm(file, { force: true });
    throw error;
  });
  let state: UploadState;
  try {
    state = { status: 'preview', fileName, report: await dryRun(file) };
  } catch (error) {
    await rm(file, { force: true });
    if (!(error instanceof ImportError)) throw error;
    state = { status: 'refused', fileName, message: error.message };
  }
  await writeFile(path.join(dir, `${id}.json`), JSON.stringify(state));
  return { id, state };
}
