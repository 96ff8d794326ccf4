import type { Context } from 'koa';
import { Invalid } from '../kernel/errors.ts';
import { readBody } from '../server/body.ts';

const MAX_JSON_BYTES = 512 * 1024;
/** For forms of a few fields (cart, checkout, comments): anything bigger is not a real request. */
export const SMALL_BODY = 64 * 1024;

/**
 * Reads a JSON request body for any API router: an empty body is {}, bad JSON (including
 * JSON nested too deep to parse) is a 400, more than `limit` bytes a 413, always with a message.
 */
export async function readJsonBody(ctx: Context, limit = MAX_JSON_BYTES): Promise<unknown> {
  const text = (await readBody(ctx, limit)).toString('utf8').trim();
  if (!text) return {};
  if (text.includes('\\u0000') || text.includes('\u0000'))
    throw new Invalid('Request body must not contain NUL characters.');
  try {
    return JSON.parse(text);
  } catch {
    throw new Invalid('Request body must be valid JSON.');
  }
}

/** A small JSON body that must be an object (an admin form's fields), or 400. */
export async function objectBody(ctx: Context): Promise<Record<string, unknown>> {
  const body = await readJsonBody(ctx, SMALL_BODY);
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new Invalid('Request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** A positive integer id from the query string, or 400. */
export function queryId(ctx: Context, name = 'id'): number {
  const raw = ctx.query[name];
  const id = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (id < 1) throw new Invalid(`Query parameter ${name} must be a positive integer`);
  return id;
}
