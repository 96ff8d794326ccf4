import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createReadableStreamFromReadable } from '@react-router/node';
import type { Context, Middleware } from 'koa';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import type { AppContext } from '../app/context.ts';
import { pageRoutePattern } from './metrics.ts';
import { respondUnavailable } from './middleware.ts';
import { captureForCache } from './page-cache.ts';
import type { AppServices } from './services.ts';

type BuildWithContext = ServerBuild & { entry: { module: { appContext?: unknown } } };

const patterns = new WeakMap<ServerBuild, (pathname: string) => string>();
function routePatternOf(build: ServerBuild, pathname: string): string {
  let match = patterns.get(build);
  if (!match) {
    match = pageRoutePattern(build);
    patterns.set(build, match);
  }
  return match(pathname);
}

/**
 * Serves every non-API path through React Router. The body is streamed, never buffered:
 * Koa's compression middleware flushes each chunk as it comes.
 */
export function reactRouterMiddleware(
  services: AppServices,
  getBuild: () => Promise<ServerBuild>,
  mode: string,
): Middleware {
  return async (ctx) => {
    const build = (await getBuild()) as BuildWithContext;
    const handler = createRequestHandler(build, mode);
    const appContextKey = build.entry.module.appContext as Parameters<RouterContextProvider['set']>[0];
    const loadContext = new RouterContextProvider();
    loadContext.set(appContextKey, { services, state: ctx.state } satisfies AppContext);

    const request = toFetchRequest(ctx);
    const route = routePatternOf(build, ctx.path);
    ctx.state.routePattern = route;
    const endShell = services.metrics.ssrShell.startTimer({ route });
    const response = await handler(request, loadContext);
    endShell();
    // A loader that failed because the database went away is a 503 the client may retry, not a bug.
    if (response.status >= 500 && !(await services.dbAvailability.check())) {
      await response.body?.cancel();
      return respondUnavailable(ctx);
    }
    sendResponse(ctx, response, services);
  };
}

function toFetchRequest(ctx: Context): Request {
  // String concatenation, not new URL(path, base): a path like //evil.com would change the host.
  const url = `${ctx.protocol}://${ctx.host}${ctx.originalUrl}`;
  const controller = new AbortController();
  ctx.res.on('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  const raw = ctx.req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].startsWith(':')) continue;
    headers.append(raw[i], raw[i + 1]);
  }
  const init: RequestInit & { duplex?: 'half' } = { method: ctx.method, headers, signal: controller.signal };
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    init.body = createReadableStreamFromReadable(ctx.req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

function sendResponse(ctx: Context, response: Response, services: AppServices): void {
  ctx.status = response.status;
  for (const [key, value] of response.headers) {
    if (key === 'set-cookie') continue;
    ctx.set(key, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) ctx.append('Set-Cookie', cookies);
  // Leave the body unset for redirects and empty answers: ctx.body = null would turn a 302 into a 204.
  if (response.body) {
    const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
    ctx.body = captureForCache(ctx, services.pageCache, body);
  }
}
