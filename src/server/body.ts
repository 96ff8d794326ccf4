import type { Context } from 'koa';
import { HttpError } from './middleware.ts';

/**
 * The one reader of request bodies (API routers and page form actions): at most `limit` bytes,
 * or a 413. A declared Content-Length over the limit is refused before a byte is read, and a
 * body found too large while streaming as soon as it passes the limit; nothing past the limit
 * is kept. Node discards the unread rest after the answer (it does not close the connection
 * on unread data), so the client reads its 413 instead of a reset.
 */
export function readBody(ctx: Context, limit: number): Promise<Buffer> {
  const req = ctx.req;
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  const tooLarge = () => new HttpError(413, 'Request body is too large.');
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.pause();
      chunks.length = 0;
      reject(tooLarge());
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new HttpError(400, 'The request body was not sent completely.'));
    });
  });
}
