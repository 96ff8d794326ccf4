import { createReadStream, readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import mime from 'mime-types';
import type { UploadStorage } from '../media/storage.ts';

/**
 * Serves the build's client files for GET and HEAD. Files under the immutable prefix are
 * content-hashed and cached for a year; the rest revalidate after an hour. The build does not
 * change while the process runs: its file list is read once, so a page request costs no file
 * system call here.
 */
/** A permanent redirect for each renamed file (old path → new path): links already out keep working. */
export function redirectRenamed(renamed: Readonly<Record<string, string>>): Middleware {
  return async (ctx, next) => {
    const target = Object.hasOwn(renamed, ctx.path) ? renamed[ctx.path] : undefined;
    if (!target || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.status = 301;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.redirect(target);
  };
}

export function serveStatic(root: string, opts: { immutablePrefix: string }): Middleware {
  const base = path.resolve(root);
  const files = new Set(
    readdirSync(base, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name)),
  );
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    let relative: string;
    try {
      relative = decodeURIComponent(ctx.path.slice(1));
    } catch {
      return next();
    }
    if (relative.includes('\0')) return next();
    const file = path.resolve(base, `.${path.posix.sep}${relative}`);
    if (!file.startsWith(base + path.sep) || !files.has(file)) return next();
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return next();
    const immutable = ctx.path.startsWith(opts.immutablePrefix);
    ctx.set('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
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

const UPLOADS_PREFIX = '/uploads/';
/** What the upload handler stores (originals by their sniffed type, variants as WebP). */
const UPLOAD_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * GET and HEAD /uploads/<name> from the upload storage, local or S3. Stored names are random
 * and never rewritten with other content, so they are cached for a year. Anything that is not
 * one plain file name (a slash, `..`, an encoded separator) falls through to the 404 page.
 */
/** For a missing `<name>-<w>x<h>.webp`, the stored original `<name>.<ext>` it is made from. */
async function originalOfMissingVariant(storage: UploadStorage, name: string): Promise<string | null> {
  const base = /^([a-f0-9]{32})-\d+x\d+\.webp$/.exec(name)?.[1];
  if (!base) return null;
  for (const ext of ['jpg', 'png', 'webp', 'gif']) {
    const candidate = `${base}.${ext}`;
    const found = await storage.get(candidate);
    if (found) {
      found.body.destroy();
      return candidate;
    }
  }
  return null;
}

export function serveUploads(storage: UploadStorage): Middleware {
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(UPLOADS_PREFIX))
      return next();
    const name = ctx.path.slice(UPLOADS_PREFIX.length);
    const type = mime.lookup(name);
    if (!type || !UPLOAD_TYPES.has(type)) return next();
    const object = await storage.get(name);
    if (!object) {
      const original = await originalOfMissingVariant(storage, name);
      if (!original) return next();
      // Pages ask for the variant as soon as an upload is used; the worker may not have made it yet.
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(`${UPLOADS_PREFIX}${original}`);
      ctx.status = 307;
      return;
    }
    const headOnly = ctx.method === 'HEAD';
    if (headOnly) {
      object.body.destroy();
      ctx.body = null; // before the headers: setting a null body drops them
    }
    ctx.status = 200;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('Last-Modified', object.lastModified.toUTCString());
    ctx.type = type;
    if (ctx.fresh) {
      if (!headOnly) object.body.destroy();
      ctx.status = 304;
      return;
    }
    ctx.length = object.size;
    if (!headOnly) ctx.body = object.body;
  };
}
