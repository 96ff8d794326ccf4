import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { HttpError } from './middleware.ts';

/** Up to this multiple of the limit a declared body is a mistake, read to its end; past it, abuse. */
const DRAIN_FACTOR = 32;
/** A body of unknown length is read this many times its limit past it before it counts as abuse. */
const STREAM_DRAIN_FACTOR = 4;

/** How long an abusive client has to read its 413 before its connection is closed. */
const LINGER_MS = 2_000;

/**
 * Reads and drops what is left of a refused body, so the client gets its 413 and the connection
 * stays usable. Past `budget` bytes the body is abuse: reading stops (no hundreds of megabytes
 * read only to be thrown away) and the connection is closed a little later. Not at once: closing
 * a socket with unread data resets it, and a reset can wipe out the 413 before the client reads it.
 */
export function discardRest(req: IncomingMessage, budget: number): void {
  const cut = () => {
    req.pause();
    setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
  };
  if (budget <= 0) {
    // read(0) marks the untouched request as consumed: Node would otherwise read it all after the answer.
    req.read(0);
    cut();
    return;
  }
  let left = budget;
  const onData = (chunk: Buffer) => {
    left -= chunk.length;
    // A body that ends within the budget (exactly at it, too) leaves the connection open for reuse.
    if (left >= 0) return;
    req.off('data', onData);
    cut();
  };
  req.on('data', onData);
  req.once('end', () => req.off('data', onData));
  req.resume();
}

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
