import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Sharp } from 'sharp';
import { Invalid, TooLarge } from '../kernel/errors.ts';
import { detectImageType, type ImageType, SNIFF_BYTES } from './image-type.ts';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from './messages.ts';
import { loadSharp, type SharpFactory } from './sharp.ts';
import type { UploadStorage } from './storage.ts';
import type { ImageSize } from './upload-sizes.ts';

export type StoredUpload = {
  fileName: string;
  url: string;
  type: ImageType;
  bytes: number;
  /** As sharp wrote it (an animation's frame size). */
  size: ImageSize | null;
};

/** Stored names are ours alone: random, with the extension of the detected format. */
function randomFileName(type: ImageType): string {
  return `${randomBytes(16).toString('hex')}.${type.ext}`;
}

/**
 * Streams the multipart field `file` to the upload storage under a random name. The size limit
 * is enforced while streaming (busboy stops at the limit), so a large file is never held in memory.
 * Rejects with TooLarge over the limit, Invalid for anything that is not an accepted image.
 */
export function receiveUpload(req: IncomingMessage, storage: UploadStorage): Promise<StoredUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
      });
    } catch {
      reject(new Invalid(UPLOAD_MESSAGES.noFile));
      return;
    }
    let settled = false;
    let sawFile = false;
    // Past the limit the rest is read and dropped (so ordinary clients get the answer), but a
    // request far larger than any allowed upload is cut off.
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_UPLOAD_BYTES * 2) req.destroy();
    });
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume();
      reject(error);
    };

    parser.on('file', (field, stream) => {
      if (field !== 'file' || sawFile) {
        stream.resume();
        return;
      }
      sawFile = true;
      storeFile(stream, storage).then(
        (stored) => {
          if (settled) return;
          settled = true;
          resolve(stored);
        },
        (error: unknown) => fail(error as Error),
      );
    });
    parser.on('error', () => fail(new Invalid(UPLOAD_MESSAGES.noFile)));
    parser.on('close', () => {
      if (!sawFile) fail(new Invalid(UPLOAD_MESSAGES.noFile));
    });
    req.pipe(parser);
  });
}

/**
 * Stores an image stream (sniffed, re-encoded without metadata) under a random name, or under
 * `baseName` plus the detected extension when the caller needs a name it can find again.
 */
export async function storeFile(
  stream: Readable & { truncated?: boolean },
  storage: UploadStorage,
  baseName?: string,
): Promise<StoredUpload> {
  const sharp = await loadSharp();
  const { head, ended } = await readHead(stream);
  const type = detectImageType(head);
  if (!type) {
    stream.resume();
    throw new Invalid(UPLOAD_MESSAGES.notImage);
  }
  const fileName = baseName ? `${baseName}.${type.ext}` : randomFileName(type);
  let bytes = head.length;
  let tooLarge = false;
  stream.on('limit', () => {
    tooLarge = true;
    stream.destroy(new TooLarge(UPLOAD_MESSAGES.tooLarge));
  });
  const body = Readable.from(
    (async function* () {
      yield head;
      if (ended) return;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        yield chunk;
      }
    })(),
  );
  const cleaned = withoutMetadata(sharp, type);
  let size: ImageSize | null = null;
  cleaned.on('info', (info: { width: number; height: number; pageHeight?: number }) => {
    size = { width: info.width, height: info.pageHeight ?? info.height };
  });
  let undecodable = false;
  cleaned.on('error', () => {
    undecodable = !tooLarge;
  });
  body.on('error', (error) => cleaned.destroy(error));
  try {
    await storage.put(fileName, body.pipe(cleaned), type.mime);
  } catch (error) {
    if (tooLarge) throw new TooLarge(UPLOAD_MESSAGES.tooLarge);
    // Image magic bytes in front of something that does not decode: not an image after all.
    if (undecodable) throw new Invalid(UPLOAD_MESSAGES.notImage);
    throw error;
  }
  if (stream.truncated) {
    await storage.delete(fileName).catch(() => {});
    throw new TooLarge(UPLOAD_MESSAGES.tooLarge);
  }
  return { fileName, url: `/uploads/${fileName}`, type, bytes, size };
}

/**
 * The image re-encoded in its own format without its metadata: what a camera wrote into it
 * (EXIF with GPS position, time, device) is not published with it. A JPEG is turned upright
 * first, since its EXIF orientation goes too. sharp decodes the whole image (at most 10 MB).
 */
function withoutMetadata(sharp: SharpFactory, type: ImageType): Sharp {
  switch (type.ext) {
    case 'jpg':
      return sharp({ failOn: 'error' }).rotate().jpeg({ quality: 90, mozjpeg: true });
    case 'png':
      return sharp({ failOn: 'error' }).png();
    case 'webp':
      return sharp({ failOn: 'error', animated: true }).webp({ quality: 90 });
    case 'gif':
      return sharp({ failOn: 'error', animated: true }).gif();
  }
}

/**
 * The first chunk(s) of the stream, at least SNIFF_BYTES unless the file is shorter; the
 * stream is paused after them. `ended` tells that the file had nothing more.
 */
function readHead(stream: Readable): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (ended: boolean) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', reject);
      stream.pause();
      resolve({ head: Buffer.concat(chunks), ended });
    };
    const onEnd = () => finish(true);
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= SNIFF_BYTES) finish(false);
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
  });
}
