import { isbot } from 'isbot';
import type { Middleware } from 'koa';
import type { AppServices } from '../server/services.ts';
import { countryCode, deviceClass, referrerSource } from './classify.ts';

function positiveId(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && id < 2 ** 31 ? id : null;
}

/**
 * Counts the page views of real browsers, stored pages included: a page is a 200 HTML answer of
 * React Router (pageMeta is set for it, stored or rendered). Bots, prefetches, HEAD, admins and the
 * page cache's own refreshes are not readers.
 */
export function countPageViews(services: AppServices): Middleware {
  const { config } = services;
  return async (ctx, next) => {
    await next();
    const meta: Record<string, string> | undefined = ctx.state.pageMeta;
    // 304: a browser's revalidation of a page it shows again is a view too.
    if (!meta || ctx.method !== 'GET' || (ctx.status !== 200 && ctx.status !== 304)) return;
    if (!ctx.response.is('html') || ctx.path.startsWith('/admin')) return;
    const userAgent = ctx.get('user-agent');
    if (!userAgent || isbot(userAgent)) return;
    if ([ctx.get('purpose'), ctx.get('sec-purpose'), ctx.get('x-moz')].some((v) => /prefetch/i.test(v)))
      return;
    if (ctx.state.pageCache?.refresh || ctx.state.session?.user?.role === 'admin') return;
    const untracked = ctx.get('dnt') === '1' || ctx.get('sec-gpc') === '1';
    services.pageViews.record({
      path: ctx.path.slice(0, 300),
      postId: positiveId(meta['view-post']),
      productId: positiveId(meta['view-product']),
      visitor: untracked ? null : { address: ctx.ip, userAgent },
      sessionId: ctx.state.session?.id ?? null,
      source: referrerSource(ctx.get('referer'), [new URL(services.publicUrl).hostname, ctx.hostname]),
      device: deviceClass(userAgent),
      country: countryCode(ctx.get(config.analyticsCountryHeader)),
    });
  };
}
