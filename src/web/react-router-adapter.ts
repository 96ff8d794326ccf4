import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context, Middleware } from 'koa';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import type { AppContext } from '../app/context.ts';
import { readBody } from '../server/body.ts';
import { HttpError } from '../server/error-status.ts';
import { respondUnavailable } from '../server/middleware.ts';
import { captureForCache } from '../server/page-cache.ts';
import type { AppServices } from '../server/services.ts';
import { type PageRoute, pageRouteOf } from './route-match.ts';

type BuildWithContext = ServerBuild & { entry: { module: { appContext?: unknown } } };

type RequestHandler = ReturnType<typeof createRequestHandler>;
/** One handler per build: creating one derives the route tree again, which cost every request its share. */
const handlers = new WeakMap<ServerBuild, RequestHandler>();
function requestHandlerOf(build: ServerBuild, mode: string): RequestHandler {
  let handler = handlers.get(build);
  if (!handler) {
    handler = createRequestHandler(build, mode);
    handlers.set(build, handler);
  }
  return handler;
}

/**
 * Serves every non-API path through React Router. The body is streamed, never buffered:
 * Koa's compression middleware flushes each chunk as it comes (coalesced per turn: Coalesce).
 */
export function reactRouterMiddleware(
  services: AppServices,
  getBuild: () => Promise<ServerBuild>,
  mode: string,
): Middleware {
  return async (ctx) => {
    const build = (await getBuild()) as BuildWithContext;
    const handler = requestHandlerOf(build, mode);
    const appContextKey = build.entry.module.appContext as Parameters<RouterContextProvider['set']>[0];
    const loadContext = new RouterContextProvider();
    loadContext.set(appContextKey, { services, state: ctx.state } satisfies AppContext);

    const page = pageRouteOf(build, ctx.path);
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allowedMethods(page));
      ctx.status = 204;
      return;
    }
    const request = toFetchRequest(ctx, await pageFormBody(ctx, page));
    await refuseUnusableForm(request);
    const route = page.pattern;
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

/** A page takes POST only when its route has an action. */
function allowedMethods(page: PageRoute): string {
  return page.hasAction ? 'GET, HEAD, POST' : 'GET, HEAD';
}

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);
/** Page forms have a few fields; images go to /api/uploads, never through a page action. */
export const PAGE_FORM_BODY = 64 * 1024;
/** The admin editors post a whole post (content up to 200,000 characters), or a subscribers CSV. */
export const ADMIN_FORM_BODY = 4 * 1024 * 1024;

/**
 * The body of a page request, read whole within its route's limit before React Router sees it:
 * actions call request.formData(), which would otherwise buffer whatever a client sends.
 * Methods other than GET, HEAD and POST (POST only where the route has an action) are a 405,
 * bodies that are not forms a 415.
 */
async function pageFormBody(ctx: Context, page: PageRoute): Promise<Buffer | undefined> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return undefined;
  if (ctx.method !== 'POST' || !page.hasAction)
    throw new HttpError(405, 'This page does not accept that request method.', {
      Allow: allowedMethods(page),
    });
  const admin =
    ctx.state.session?.user?.role === 'admin' && (ctx.path === '/admin' || ctx.path.startsWith('/admin/'));
  const body = await readBody(ctx, admin ? ADMIN_FORM_BODY : PAGE_FORM_BODY);
  const type = ctx.get('content-type').split(';')[0].trim().toLowerCase();
  if (body.length === 0 && !type) return body;
  if (!FORM_TYPES.has(type))
    throw new HttpError(
      415,
      'Forms must be sent as application/x-www-form-urlencoded or multipart/form-data.',
    );
  ctx.state.formIntent = formIntent(body, type);
  return body;
}

/** The form's `intent` field (which of a page's actions it asks for), for the audit log. */
function formIntent(body: Buffer, type: string): string | null {
  const text = body.subarray(0, 64 * 1024).toString('latin1');
  const value =
    type === 'multipart/form-data'
      ? /name="intent"\r\n\r\n([^\r]*)/.exec(text)?.[1]
      : new URLSearchParams(text).get('intent');
  // Control characters (a NUL above all) are no part of an intent, and the audit log cannot store a NUL.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  return value ? value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 60) : null;
}

/**
 * A form the actions cannot use is the client's error, refused here once for every page: a
 * multipart body that cannot be parsed (no boundary, cut short), or a NUL in a field's name or
 * text (PostgreSQL text cannot hold one), as the JSON API refuses it.
 */
async function refuseUnusableForm(request: Request): Promise<void> {
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  const multipart = type.startsWith('multipart/');
  if (!multipart && !(request.body && type.startsWith('application/x-www-form-urlencoded'))) return;
  let form: FormData;
  try {
    form = await request.clone().formData();
  } catch {
    throw new HttpError(400, 'The form data could not be read.');
  }
  for (const [name, value] of form)
    if (name.includes('\0') || (typeof value === 'string' && value.includes('\0')))
      throw new HttpError(400, 'Form fields must not contain NUL characters.');
}

function toFetchRequest(ctx: Context, body: Buffer | undefined): Request {
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
  const init: RequestInit = { method: ctx.method, headers, signal: controller.signal };
  if (body) init.body = new Uint8Array(body);
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
  // Rendered pages come in chunks joined per turn of the event loop (Coalesce, in entry.server).
  if (response.body) {
    const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
    ctx.body = captureForCache(ctx, services.pageCache, body);
  }
}
