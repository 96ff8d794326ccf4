import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { discardRest } from '../kernel/discard-body.ts';
import { Invalid, NotFound, TooLarge } from '../kernel/errors.ts';
import type { UploadStorage } from '../media/storage.ts';
import type { ImportReport } from './import.ts';
import { IMPORT_MESSAGES, MAX_IMPORT_BYTES } from './messages.ts';
import { ImportError } from './types.ts';

/** What the admin screen shows for one upload: its dry run, or why the file was refused. */
export type UploadState =
  | { status: 'preview'; fileName: string; report: ImportReport }
  | { status: 'refused'; fileName: string; message: string };

/** 8 hex digits of the upload's second (for the sweep), then 16 random ones. */
const ID = /^[a-f0-9]{24}$/;
const STORED = /^import-([a-f0-9]{8})[a-f0-9]{16}\.(upload|json)$/;
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

/*
 * Uploaded exports and their previews wait in the private file storage (a local directory or an
 * S3 prefix, never served) as import-<id>.upload and import-<id>.json: the worker and the other
 * web processes may not share this process's disk.
 */
const uploadName = (id: string) => `import-${id}.upload`;
const stateName = (id: string) => `import-${id}.json`;

function checkId(id: string): void {
  if (!ID.test(id)) throw new NotFound('No such import upload.');
}

export async function readUploadState(storage: UploadStorage, id: string): Promise<UploadState | null> {
  if (!ID.test(id)) return null;
  const object = await storage.get(stateName(id));
  return object ? (JSON.parse(await text(object.body)) as UploadState) : null;
}

/** Runs work on a temporary local copy of the uploaded file, removed afterwards. */
export async function withUploadedFile<T>(
  storage: UploadStorage,
  id: string,
  work: (file: string) => Promise<T>,
): Promise<T> {
  checkId(id);
  const object = await storage.get(uploadName(id));
  if (!object) throw new ImportError('Upload the export file again: this one is gone.');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'penstand-import-'));
  try {
    const file = path.join(dir, 'export');
    await pipeline(object.body, createWriteStream(file));
    return await work(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The upload is gone once imported; its state stays for the screen until the sweep. */
export async function removeUpload(storage: UploadStorage, id: string): Promise<void> {
  checkId(id);
  await storage.delete(uploadName(id));
}

/** Removes uploads and previews older than a day (never imported, or kept for the screen); the count. */
export async function sweepUploadedImports(storage: UploadStorage, now = Date.now()): Promise<number> {
  let removed = 0;
  for await (const name of storage.list()) {
    const match = STORED.exec(name);
    if (!match || now - Number.parseInt(match[1], 16) * 1000 < MAX_AGE_MS) continue;
    await storage.delete(name);
    removed++;
  }
  return removed;
}

/** What a multipart body adds around its file: boundaries and part headers. */
const MULTIPART_ALLOWANCE = 64 * 1024;

/**
 * Streams the multipart field `file` to a temporary file (never held in memory), cut at
 * MAX_IMPORT_BYTES with a 413, then runs the importer's dry run for the preview and stores the
 * file and its state. A file the importer refuses is not kept, only its message as the state.
 */
export async function receiveImport(
  req: IncomingMessage,
  storage: UploadStorage,
  dryRun: (file: string) => Promise<ImportReport>,
): Promise<{ id: string; state: UploadState }> {
  // A declared length past the limit is refused at once, not after waiting for the body.
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_IMPORT_BYTES + MULTIPART_ALLOWANCE) {
    discardRest(req, 0);
    throw new TooLarge(IMPORT_MESSAGES.tooLarge);
  }
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  const id = `${seconds}${randomBytes(8).toString('hex')}`;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'penstand-import-'));
  try {
    return await receiveInto(req, storage, id, path.join(dir, 'export'), dryRun);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function receiveInto(
  req: IncomingMessage,
  storage: UploadStorage,
  id: string,
  file: string,
  dryRun: (file: string) => Promise<ImportReport>,
): Promise<{ id: string; state: UploadState }> {
  const fileName = await new Promise<string>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: MAX_IMPORT_BYTES, files: 1, parts: 4 } });
    } catch {
      reject(new Invalid(IMPORT_MESSAGES.noFile));
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
            ? fail(new TooLarge(IMPORT_MESSAGES.tooLarge))
            : resolve((info.filename ?? '').slice(0, 200) || 'export'),
        fail,
      );
    });
    parser.on('error', () => fail(new Invalid(IMPORT_MESSAGES.noFile)));
    parser.on('close', () => {
      if (!saw) fail(new Invalid(IMPORT_MESSAGES.noFile));
    });
    req.pipe(parser);
  });
  let state: UploadState;
  try {
    state = { status: 'preview', fileName, report: await dryRun(file) };
    await storage.put(uploadName(id), createReadStream(file), 'application/octet-stream');
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    state = { status: 'refused', fileName, message: error.message };
  }
  await storage.put(stateName(id), Buffer.from(JSON.stringify(state)), 'application/json');
  return { id, state };
}
