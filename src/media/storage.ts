import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config, S3Config } from '../config.ts';

export type StoredObject = { body: Readable; size: number; lastModified: Date };
export type ByteRange = { start: number; end: number };

/**
 * Public: images served at /uploads/<name>. Private: downloadable products' files and uploaded imports under the
 * `private/` prefix (a subdirectory or a key prefix), which /uploads never serves: its names
 * are single path segments, so no name reaches the prefix.
 */
export type StorageArea = 'public' | 'private';
const PRIVATE_PREFIX = 'private';

/**
 * Where uploads and their variants live. Names are flat (one path segment, chosen by us), so
 * a local directory and a bucket hold the same keys.
 */
export interface UploadStorage {
  readonly kind: 'local' | 's3';
  /** Stores the whole body under name. Rejects, storing nothing, when the body errors. */
  put(name: string, body: Readable | Buffer, contentType: string): Promise<void>;
  /**
   * The stored object, or null when there is none. With a range (inclusive byte offsets, within
   * the object), the body holds only those bytes; size is still the whole object's.
   */
  get(name: string, range?: ByteRange): Promise<StoredObject | null>;
  delete(name: string): Promise<void>;
  /** Every stored name, a page at a time (for the uploads archive of the export). */
  list(): AsyncIterable<string>;
  close(): void;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Whether name is a plain file name: no separator, no leading dot, so never `..`. */
export function isStorageName(name: string): boolean {
  return NAME.test(name);
}

function checkName(name: string): void {
  if (!isStorageName(name)) throw new Error(`Not a storage name: ${JSON.stringify(name)}`);
}

export function createUploadStorage(
  config: Pick<Config, 's3' | 'uploadsDir'>,
  area: StorageArea = 'public',
): UploadStorage {
  if (config.s3) return new S3Storage(config.s3, area === 'private' ? `${PRIVATE_PREFIX}/` : '');
  return new LocalStorage(
    area === 'private' ? path.join(config.uploadsDir, PRIVATE_PREFIX) : config.uploadsDir,
  );
}

/** A directory on this machine: the default, for one machine or a shared volume. */
class LocalStorage implements UploadStorage {
  readonly kind = 'local';
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  async put(name: string, body: Readable | Buffer, _contentType: string): Promise<void> {
    checkName(name);
    await mkdir(this.dir, { recursive: true });
    // Written beside the target and renamed, so readers never see half a file. The leading dot
    // keeps the partial file out of reach of get().
    const partial = path.join(this.dir, `.${name}.${randomBytes(6).toString('hex')}.part`);
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(partial));
      await rename(partial, path.join(this.dir, name));
    } catch (error) {
      await unlink(partial).catch(() => {});
      throw error;
    }
  }

  async get(name: string, range?: ByteRange): Promise<StoredObject | null> {
    if (!isStorageName(name)) return null;
    const file = path.join(this.dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    return { body: createReadStream(file, range), size: info.size, lastModified: info.mtime };
  }

  async delete(name: string): Promise<void> {
    checkName(name);
    await unlink(path.join(this.dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async *list(): AsyncIterable<string> {
    const entries = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
    // Partial writes and the import screen's private area start with a dot: not uploads.
    for (const entry of entries) if (entry.isFile() && isStorageName(entry.name)) yield entry.name;
  }

  close(): void {}
}

type S3Sdk = typeof import('@aws-sdk/client-s3');

/**
 * Any S3-compatible bucket (AWS S3, MinIO, R2, …), shared by every web and worker process. The
 * SDK is imported only here, when a bucket is configured: a deployment on a local directory never
 * loads it (about 30 MB of memory).
 */
class S3Storage implements UploadStorage {
  readonly kind = 's3';
  private readonly bucket: string;
  private readonly keyPrefix: string;
  private readonly sdk: Promise<{ s3: S3Sdk; client: S3Client }>;
  private client: S3Client | undefined;

  constructor(config: S3Config, keyPrefix: string) {
    this.bucket = config.bucket;
    this.keyPrefix = keyPrefix;
    this.sdk = import('@aws-sdk/client-s3').then((s3) => {
      this.client = new s3.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: config.credentials,
        // The SDK's default CRC checksums (aws-chunked bodies) are not understood by every
        // S3-compatible server; S3 itself does not require them.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { s3, client: this.client };
    });
  }

  async put(name: string, body: Readable | Buffer, contentType: string): Promise<void> {
    checkName(name);
    const { s3, client } = await this.sdk;
    const common = { Bucket: this.bucket, Key: this.keyPrefix + name, ContentType: contentType };
    if (Buffer.isBuffer(body)) {
      await client.send(new s3.PutObjectCommand({ ...common, Body: body }));
      return;
    }
    // S3 wants the length up front and a stream's is unknown: spool it to a temporary file
    // (memory stays flat whatever the size), then send the file.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'penstand-upload-'));
    try {
      const file = path.join(dir, 'body');
      await pipeline(body, createWriteStream(file));
      const { size } = await stat(file);
      await client.send(
        new s3.PutObjectCommand({ ...common, Body: createReadStream(file), ContentLength: size }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async get(name: string, range?: ByteRange): Promise<StoredObject | null> {
    if (!isStorageName(name)) return null;
    const { s3, client } = await this.sdk;
    try {
      const out = await client.send(
        new s3.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyPrefix + name,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      // A ranged answer's Content-Range ends with the whole object's size.
      const total = out.ContentRange ? Number(out.ContentRange.split('/')[1]) : undefined;
      return {
        body: out.Body as Readable,
        size: total ?? out.ContentLength ?? 0,
        lastModified: out.LastModified ?? new Date(0),
      };
    } catch (error) {
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
        return null;
      throw error;
    }
  }

  async delete(name: string): Promise<void> {
    checkName(name);
    const { s3, client } = await this.sdk;
    await client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyPrefix + name }));
  }

  async *list(): AsyncIterable<string> {
    const { s3, client } = await this.sdk;
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new s3.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.keyPrefix || undefined,
          ContinuationToken,
        }),
      );
      for (const object of page.Contents ?? []) {
        const name = object.Key?.slice(this.keyPrefix.length) ?? '';
        if (isStorageName(name)) yield name;
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  close(): void {
    this.client?.destroy();
  }
}
