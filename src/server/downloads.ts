import type { Middleware } from 'koa';
import type { ByteRange } from '../media/storage.ts';
import { DOWNLOAD_MESSAGES, findGrant, giveBackDownload, takeDownload } from '../orders/downloads.ts';
import { HttpError } from './error-status.ts';
import type { AppServices } from './services.ts';

const PREFIX = '/downloads/';

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range within size; null for none, 'bad' when unsatisfiable. */
function parseRange(header: string | undefined, size: number): ByteRange | null | 'bad' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: the whole file (a server may ignore Range).
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'bad';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'bad';
  return { start, end };
}

/**
 * GET and HEAD /downloads/<token>: a paid order's file, from private storage, with its name.
 * Resumable (one Range); each response takes one download before it starts (so parallel ones
 * cannot pass the limit) and gives it back if it is cut short: an interrupted one counts none.
 * Past the grant's expiry or limit, or once revoked, 410; an unknown token 404.
 */
export function serveDownloads(services: AppServices): Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(PREFIX)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    // A link is one buyer's: never kept by a shared cache.
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Robots-Tag', 'noindex');
    const grant = await findGrant(services.db, ctx.path.slice(PREFIX.length));
    if (!grant) throw new HttpError(404, DOWNLOAD_MESSAGES.notFound);
    if (grant.revoked) throw new HttpError(410, DOWNLOAD_MESSAGES.revoked);
    if (grant.expiresAt.getTime() <= Date.now()) throw new HttpError(410, DOWNLOAD_MESSAGES.expired);
    if (grant.downloads >= grant.limit) throw new HttpError(410, DOWNLOAD_MESSAGES.limitReached);

    const range = parseRange(ctx.get('range') || undefined, grant.size);
    if (range === 'bad')
      throw new HttpError(416, 'The requested range is not within the file', {
        'Content-Range': `bytes */${grant.size}`,
      });
    const headOnly = ctx.method === 'HEAD';
    if (!headOnly && !(await takeDownload(services.db, grant.id)))
      throw new HttpError(410, DOWNLOAD_MESSAGES.limitReached);
    const giveBack = () =>
      giveBackDownload(services.db, grant.id).catch((error: unknown) =>
        ctx.state.log.error({ err: error, grantId: grant.id }, 'download not given back'),
      );
    const object = headOnly
      ? null
      : await services.privateFiles
          .get(grant.storageName, range ?? undefined)
          .catch(async (error: unknown) => {
            await giveBack();
            throw error;
          });
    if (!headOnly && !object) {
      await giveBack();
      throw new HttpError(404, DOWNLOAD_MESSAGES.notFound);
    }
    // Compressing would change the length and the byte offsets that Range counts in.
    ctx.compress = false;
    ctx.attachment(grant.fileName);
    ctx.type = grant.contentType;
    ctx.set('Accept-Ranges', 'bytes');
    if (range) {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${grant.size}`);
      ctx.length = range.end - range.start + 1;
    } else {
      ctx.status = 200;
      ctx.length = grant.size;
    }
    if (headOnly || !object) return;
    ctx.body = object.body;
    // Closed before 'finish' (the last byte handed to the connection): a download cut short counts nothing.
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) void giveBack();
    });
  };
}
