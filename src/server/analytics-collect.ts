import { isbot } from 'isbot';
import type { Context, Middleware } from 'koa';
import { rememberPostRead } from '../analytics/attribution.ts';
import { countryCode, type Device, deviceClass, referrerSource } from '../analytics/classify.ts';
import type { AppServices } from './services.ts';

function positiveId(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 && id < 2 ** 31 ? id : null;
}

/**
 * The page a request shows: an HTML page, or a client-side navigation's `.data` request to it. The
 * latter also comes after a form on the same page (React Router reloads its data), which is no new
 * view: a navigation's Referer is the page it leaves.
 */
function pagePath(ctx: Context): string | null {
  if (!ctx.path.endsWith('.data'))
    return String(ctx.state.storedType ?? ctx.response.get('content-type')).startsWith('text/html')
      ? ctx.path
      : null;
  const path = ctx.path.replace(/(\/_)?\.data$/, '') || '/';
  let from: string | null = null;
  try {
    from = new URL(ctx.get('referer')).pathname;
  } catch {
    // No Referer: counted as a navigation.
  }
  return from === path ? null : path;
}

/** Recent user agents told apart once: most views come from a few browser versions' agents. */
const agents = new Map<string, { bot: boolean; device: Device }>();
const AGENTS_KEPT = 1_000;

function agentOf(userAgent: string): { bot: boolean; device: Device } {
  let agent = agents.get(userAgent);
  if (!agent) {
    if (agents.size >= AGENTS_KEPT) agents.clear();
    agent = { bot: isbot(userAgent), device: deviceClass(userAgent) };
    agents.set(userAgent, agent);
  }
  return agent;
}

/**
 * Counts the page views of real browsers, stored pages included: a page is an answer of React
 * Router (pageMeta is set for it, stored or rendered), see pagePath. Bots, prefetches, HEAD, admins and the
 * page cache's own refreshes are not readers. With the 'Analytics' setting off, only post pages
 * count, for their public view counts, and nothing else is collected.
 */
export function countPageViews(services: AppServices): Middleware {
  const countView = pageViewCounter(services);
  return async (ctx, next) => {
    await next();
    countView(ctx);
  };
}

/** The counting of countPageViews, after a request is answered: stored pages sent before any middleware count through it too. */
export function pageViewCounter(services: AppServices): (ctx: Context) => void {
  const { config } = services;
  const ownHost = new URL(services.publicUrl).hostname;
  const count = (ctx: Context, meta: Record<string, string>, analytics: boolean) => {
    const postId = positiveId(meta['view-post']);
    // With analytics off only a post's public count is kept: any other page is done here.
    if (!analytics && !postId) return;
    const path = pagePath(ctx);
    if (!path || path.startsWith('/admin')) return;
    const userAgent = ctx.get('user-agent');
    if (!userAgent) return;
    const agent = agentOf(userAgent);
    if (agent.bot) return;
    if ([ctx.get('purpose'), ctx.get('sec-purpose'), ctx.get('x-moz')].some((v) => /prefetch/i.test(v)))
      return;
    if (ctx.state.pageCache?.refresh || ctx.state.session?.user?.role === 'admin') return;
    const untracked = ctx.get('dnt') === '1' || ctx.get('sec-gpc') === '1';
    const visitor = untracked ? null : { address: ctx.ip, userAgent };
    const sessionId: string | null = ctx.state.session?.id ?? null;
    if (!analytics) {
      services.pageViews.record({ postId, visitor, sessionId });
      return;
    }
    // For shop attribution; only a visitor who already has a session (a cart, an account) has one.
    if (postId && sessionId)
      void rememberPostRead(services.db, sessionId, postId, services.pageViews.clock()).catch((err) =>
        ctx.state.log.warn({ err: (err as Error).message }, 'last post read not remembered'),
      );
    services.pageViews.record({
      path: path.slice(0, 300),
      postId,
      productId: positiveId(meta['view-product']),
      visitor,
      sessionId,
      source: referrerSource(ctx.get('referer'), [ownHost, ctx.hostname]),
      device: agent.device,
      country: countryCode(ctx.get(config.analyticsCountryHeader)),
    });
  };
  return (ctx) => {
    const meta: Record<string, string> | undefined = ctx.state.pageMeta;
    // 304: a browser's revalidation of a page it shows again is a view too.
    if (!meta || ctx.method !== 'GET' || (ctx.status !== 200 && ctx.status !== 304)) return;
    // Never awaited: the page is still streaming out (and into the page cache) meanwhile.
    const analytics = services.analytics.isOn();
    if (typeof analytics === 'boolean') count(ctx, meta, analytics);
    else
      void analytics
        .then((on) => count(ctx, meta, on))
        .catch((err) => ctx.state.log.warn({ err: (err as Error).message }, 'page view not counted'));
  };
}
