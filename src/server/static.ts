import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import mime from 'mime-types';

/**
 * Serves files under root for GET and HEAD. Files under an immutable prefix are
 * content-hashed and cached for a year; the rest revalidate.
 */
export function serveStatic(
  root: string,
  opts: { prefix?: string; immutablePrefix?: string; maxAge?: number } = {},
): Middleware {
  const prefix = opts.prefix ?? '/';
  const base = path.resolve(root);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(prefix)) return next();
    let relative: string;
    try {
      relative = decodeURIComponent(ctx.path.slice(prefix.length));
    } catch {
      return next();
    }
    if (relative.includes('\0')) return next();
    const file = path.resolve(base, `.${path.posix.sep}${relative}`);
    if (!file.startsWith(base + path.sep)) return next();
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return next();
    const immutable = opts.immutablePrefix && ctx.path.startsWith(opts.immutablePrefix);
    ctx.set(
      'Cache-Control',
      immutable ? 'public, max-age=31536000, immutable' : `public, max-age=${opts.maxAge ?? 3600}`,
    );
    ctx.set('Last-Modified', info.mtime.toUTCString());
    ctx.type = mime.lookup(file) || 'application/octet-stream';
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.length = info.size;
    ctx.body = ctx.method === 'HEAD' ? null : createReadStream(file);
    if (ctx.method === 'HEAD') ctx.status = 200;
  };
}
