import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Readable, Transform } from 'node:stream';
import busboy from 'busboy';
import mime from 'mime-types';
import type { Db } from '../db/knex.ts';
import { discardRest } from '../kernel/discard-body.ts';
import { Invalid, NotFound, TooLarge } from '../kernel/errors.ts';
import type { UploadStorage } from '../media/storage.ts';
import { SHOP_MESSAGES } from './messages.ts';
import { PRODUCT_FILE_MESSAGES } from './product-file-messages.ts';
import { deleteProduct } from './products.ts';

export type ProductFile = {
  id: number;
  name: string;
  fileName: string;
  contentType: string;
  size: number;
  createdAt: string;
};

type ProductFileRow = {
  id: number;
  product_id: number;
  name: string;
  file_name: string;
  storage_name: string;
  content_type: string;
  size_bytes: string;
  created_at: Date;
};

const NAME_MAX = 200;
/** Room for the multipart boundaries and the `name` field around the file itself. */
const MULTIPART_OVERHEAD = 1024 * 1024;
/** What is read and dropped of a streamed body past the limit before the connection is cut. */
const OVER_LIMIT_DRAIN = 64 * 1024 * 1024;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const CONTROL_ALL = /[\u0000-\u001f\u007f]/g;

function toFile(row: ProductFileRow): ProductFile {
  return {
    id: row.id,
    name: row.name,
    fileName: row.file_name,
    contentType: row.content_type,
    size: Number(row.size_bytes),
    createdAt: row.created_at.toISOString(),
  };
}

/** The uploaded file's own name without any directory, control characters or excess length. */
function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base.replace(CONTROL_ALL, '').trim().slice(0, NAME_MAX);
  return clean || 'download';
}

type Received = { storageName: string; fileName: string; contentType: string; bytes: number; name: string };

/**
 * Streams the multipart field `file` into the private storage area under a random name, with the
 * optional field `name`. The limit is checked against the declared length before a byte is read
 * and again while streaming, so nothing is held in memory whatever the size.
 */
function receiveFile(req: IncomingMessage, storage: UploadStorage, maxMb: number): Promise<Received> {
  const maxBytes = maxMb * 1024 * 1024;
  const tooLarge = () => new TooLarge(PRODUCT_FILE_MESSAGES.tooLarge(maxMb));
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + MULTIPART_OVERHEAD) {
    // Reading hundreds of megabytes only to drop them helps nobody: answer and close.
    discardRest(req, 0);
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 4096, parts: 8 },
      });
    } catch {
      discardRest(req, MULTIPART_OVERHEAD);
      reject(new Invalid(PRODUCT_FILE_MESSAGES.noFile));
      return;
    }
    let settled = false;
    let name: string | undefined;
    let stored: Promise<Omit<Received, 'name'>> | undefined;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      // A client sending a body of unknown length reads its answer only once it has sent it: the
      // rest is read and dropped up to a budget, past which the connection is cut.
      discardRest(req, error instanceof TooLarge ? OVER_LIMIT_DRAIN : MULTIPART_OVERHEAD);
      reject(error);
    };
    parser.on('field', (field, value) => {
      if (field === 'name') name = value;
    });
    parser.on('file', (field, stream, info) => {
      if (field !== 'file' || stored) {
        stream.resume();
        return;
      }
      stored = storeFile(stream, storage, info.filename, tooLarge);
      // Handled where it is awaited; this only keeps a failure from being unhandled meanwhile.
      stored.catch((error: unknown) => fail(error as Error));
    });
    parser.on('error', () => fail(new Invalid(PRODUCT_FILE_MESSAGES.noFile)));
    // The `name` field may follow the file: the answer waits for the whole form.
    parser.on('close', () => {
      if (!stored) {
        fail(new Invalid(PRODUCT_FILE_MESSAGES.noFile));
        return;
      }
      stored.then(
        (file) => {
          if (settled) return;
          settled = true;
          resolve({ ...file, name: (name ?? '').trim() || file.fileName });
        },
        () => {},
      );
    });
    req.pipe(parser);
  });
}

async function storeFile(
  stream: Readable & { truncated?: boolean },
  storage: UploadStorage,
  rawFileName: string | undefined,
  tooLarge: () => TooLarge,
): Promise<Omit<Received, 'name'>> {
  const fileName = cleanFileName(rawFileName);
  const contentType = mime.lookup(fileName) || 'application/octet-stream';
  const storageName = randomBytes(16).toString('hex');
  let bytes = 0;
  let overLimit = false;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  stream.on('error', (error) => counted.destroy(error));
  stream.on('limit', () => {
    overLimit = true;
    stream.destroy(tooLarge());
  });
  stream.pipe(counted);
  try {
    await storage.put(storageName, counted, contentType);
  } catch (error) {
    if (overLimit) throw tooLarge();
    throw error;
  }
  if (overLimit || stream.truncated) {
    await storage.delete(storageName).catch(() => {});
    throw tooLarge();
  }
  return { storageName, fileName, contentType, bytes };
}

function checkName(name: string): void {
  if (name.length > NAME_MAX) throw new Invalid(PRODUCT_FILE_MESSAGES.nameTooLong);
  if (CONTROL.test(name)) throw new Invalid(PRODUCT_FILE_MESSAGES.nameControl);
}

/** Stores an uploaded file and attaches it to the product; 404 when there is no such product. */
export async function addProductFile(
  db: Db,
  storage: UploadStorage,
  productId: number,
  req: IncomingMessage,
  maxMb: number,
): Promise<ProductFile> {
  if (!(await db('products').where({ id: productId }).first('id'))) {
    discardRest(req, 0);
    throw new NotFound(SHOP_MESSAGES.productNotFound);
  }
  const received = await receiveFile(req, storage, maxMb);
  try {
    checkName(received.name);
    const [row] = await db('product_files')
      .insert({
        product_id: productId,
        name: received.name,
        file_name: received.fileName,
        storage_name: received.storageName,
        content_type: received.contentType,
        size_bytes: received.bytes,
      })
      .returning('*');
    return toFile(row as ProductFileRow);
  } catch (error) {
    await storage.delete(received.storageName).catch(() => {});
    // The product was deleted while its file was uploading.
    if ((error as { code?: string }).code === '23503') throw new NotFound(SHOP_MESSAGES.productNotFound);
    throw error;
  }
}

export async function listProductFiles(db: Db, productId: number): Promise<ProductFile[]> {
  const rows: ProductFileRow[] = await db('product_files').where({ product_id: productId }).orderBy('id');
  return rows.map(toFile);
}

/** Detaches the file and removes it from storage; 404 when the product has no such file. */
export async function deleteProductFile(
  db: Db,
  storage: UploadStorage,
  productId: number,
  fileId: number,
): Promise<void> {
  const [row] = await db('product_files')
    .where({ id: fileId, product_id: productId })
    .delete()
    .returning('storage_name');
  if (!row) throw new NotFound(PRODUCT_FILE_MESSAGES.notFound);
  await storage.delete(row.storage_name);
}

/** Deletes the product (its file rows go with it), then its stored files. */
export async function deleteProductAndFiles(
  db: Db,
  storage: UploadStorage,
  productId: number,
): Promise<void> {
  const names: string[] = await db('product_files').where({ product_id: productId }).pluck('storage_name');
  await deleteProduct(db, productId);
  await Promise.all(names.map((name) => storage.delete(name).catch(() => {})));
}
