import type { Context } from 'koa';
import { HttpError } from '../server/middleware.ts';

const LIMIT_BYTES = 64 * 1024;

/** Reads a small JSON body: an empty body is {}, bad JSON or too much of it is a 400/413. */
export async function readJsonBody(ctx: Context, limit = LIMIT_BYTES): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, 'Request body is too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body must be valid JSON.');
  }
}
