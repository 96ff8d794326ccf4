import type { Context, Middleware } from 'koa';
import { pageViewCounter } from './analytics-collect.ts';
import type { AnonymousAnswer } from './json-cache.ts';
import { lazyRequestLog, requestIdOf, securityHeaderList } from './middleware.ts';
import { anonymousTheme, REFRESH_HEADER, type StoredPageSender, sendStored } from './page-cache.ts';
import type { AppServices } from './services.ts';

/**
 * The first middleware: an anonymous reader's stored page, or stored API answer, is sent from here
 * with headers made when it was stored, as cheaply as a static file. What the middleware further in
 * would do for it is done here too: the request id, the security headers, the log line, the
 * metrics and the page view. Anything else (a miss, a visitor with a session, the cache's own
 * refresh) goes through every middleware.
 */
export function serveStoredAnswers(services: AppServices, sendPage: StoredPageSender): Middleware {
  const { config, pageCache, jsonCache, log, metrics, dbAvailability } = services;
  const countView = pageViewCounter(services);
  // An API answer runs no script: its CSP allows none.
  const apiSecurity = securityHeaderList(config, []);
  const apiHeaders = new WeakMap<AnonymousAnswer, [string, string][]>();
  const logRequests = log.isLevelEnabled('info');

  /** The log line and the metrics of requestContext and metricsMiddleware, once the answer is sent. */
  const finish = (ctx: Context, route: string, started: number) => {
    const done = () => {
      const ms = performance.now() - started;
      metrics.countRequest(ctx.method, route, ctx.status, ms / 1000);
      // The root logger with the request id in the line: the same line as a child logger's, without making one.
      if (logRequests)
        log.info(
          {
            requestId: ctx.state.requestId,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round(ms),
          },
          'request',
        );
    };
    if (ctx.res.writableFinished) done();
    else ctx.res.once('close', done);
  };

  return async (ctx, next) => {
    const { req } = ctx;
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers[REFRESH_HEADER]) return next();
    const started = performance.now();
    const url = req.url ?? '/';
    if (url.startsWith('/api/')) {
      // A stored answer is still refused while the database is down, as the API's middleware does.
      if (dbAvailability.isDown || !anonymousTheme(req.headers)) return next();
      const stored = jsonCache.storedForAnonymous(url);
      if (!stored) return next();
      const requestId = requestIdOf(req.headers['x-request-id'] as string | undefined, config.trustProxy);
      ctx.state.requestId = requestId;
      lazyRequestLog(ctx.state, log, requestId);
      const { answer, entry } = stored;
      let shared = apiHeaders.get(answer);
      if (!shared) {
        shared = [...apiSecurity, ['Vary', 'Accept-Encoding']];
        if (answer.cacheControl) shared.push(['Cache-Control', answer.cacheControl]);
        apiHeaders.set(answer, shared);
      }
      sendStored(
        ctx,
        requestId,
        'HIT',
        shared,
        { identity: entry.json, gzip: entry.gzip },
        'application/json; charset=utf-8',
        false,
      );
      finish(ctx, answer.route, started);
      return;
    }
    const key = pageCache.keyOf(req);
    const entry = key ? pageCache.get(key) : undefined;
    if (!key || !entry) return next();
    const requestId = requestIdOf(req.headers['x-request-id'] as string | undefined, config.trustProxy);
    ctx.state.requestId = requestId;
    lazyRequestLog(ctx.state, log, requestId);
    sendPage(ctx, key, entry, requestId);
    finish(ctx, 'other', started);
    countView(ctx);
  };
}
