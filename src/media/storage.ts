import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Config, S3Config } from '../config.ts';

export type StoredObject = { body: Readable; size: number; lastModified: Date };

/**
 * Where uploads and their variants live. Names are flat (one path segment, chosen by us), so
 * a local directory and a bucket hold the same keys.
 */
export interface UploadStorage {
  readonly kind: 'local' | 's3';
  /** Stores the whole body under name. Rejects, storing nothing, when the body errors. */
  put(name: string, body: Readable | Buffer, contentType: string): Promise<void>;
  /** The stored object, or null when there is none. */
  get(name: string): Promise<StoredObject | null>;
  delete(name: string): Promise<void>;
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

export function createUploadStorage(config: Pick<Config, 's3' | 'uploadsDir'>): UploadStorage {
  return config.s3 ? new S3Storage(config.s3) : new LocalStorage(config.uploadsDir);
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

  async get(name: string): Promise<StoredObject | null> {
    if (!isStorageName(name)) return null;
    const file = path.join(this.dir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    return { body: createReadStream(file), size: info.size, lastModified: info.mtime };
  }

  async delete(name: string): Promise<void> {
    checkName(name);
    await unlink(path.join(this.dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  close(): void {}
}

/** Any S3-compatible bucket (AWS S3, MinIO, R2, …), shared by every web and worker process. */
class S3Storage implements UploadStorage {
  readonly kind = 's3';
  private readonly bucket: string;
  private readonly client: S3Client;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      // The SDK's default CRC checksums (aws-chunked bodies) are not understood by every
      // S3-compatible server; S3 itself does not require them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(name: string, body: Readable | Buffer, contentType: string): Promise<void> {
    checkName(name);
    const common = { Bucket: this.bucket, Key: name, ContentType: contentType };
    if (Buffer.isBuffer(body)) {
      await this.client.send(new PutObjectCommand({ ...common, Body: body }));
      return;
    }
    // S3 wants the length up front and a stream's is unknown: spool it to a temporary file
    // (memory stays flat whatever the size), then send the file.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'penstand-upload-'));
    try {
      const file = path.join(dir, 'body');
      await pipeline(body, createWriteStream(file));
      const { size } = await stat(file);
      await this.client.send(
        new PutObjectCommand({ ...common, Body: createReadStream(file), ContentLength: size }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async get(name: string): Promise<StoredObject | null> {
    if (!isStorageName(name)) return null;
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: name }));
      return {
        body: out.Body as Readable,
        size: out.ContentLength ?? 0,
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
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: name }));
  }

  close(): void {
    this.client.destroy();
  }
}
