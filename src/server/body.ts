import type { Context } from 'koa';
import { discardRest } from '../kernel/discard-body.ts';
import { HttpError } from './error-status.ts';

/** Up to this multiple of the limit a declared body is a mistake, read to its end; past it, abuse. */
const DRAIN_FACTOR = 32;
/** A body of unknown length is read this many times its limit past it before it counts as abuse. */
const STREAM_DRAIN_FACTOR = 4;

/**
 * The one reader of request bodies (API routers and page form actions): at most `limit` bytes,
 * or a 413. A declared Content-Length over the limit is refused before a byte is kept, and a
 * streamed body as soon as it passes the limit; nothing past the limit is kept.
 */
export function readBody(ctx: Context, limit: number): Promise<Buffer> {
  const req = ctx.req;
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  const tooLarge = () => new HttpError(413, 'Request body is too large.');
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    discardRest(req, declared <= limit * DRAIN_FACTOR ? declared : 0);
    return Promise.reject(tooLarge());
  }
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
      chunks.length = 0;
      discardRest(req, limit * STREAM_DRAIN_FACTOR);
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
