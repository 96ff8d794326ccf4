import { randomBytes, randomUUID } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import type { Context, Middleware } from 'koa';
import compress from 'koa-compress';
import type { Config } from '../config.ts';
import { isConnectionError, isPoolTimeout } from '../db/availability.ts';
import { escapeHtml } from '../kernel/escape.ts';
import { paymentPageOrigin } from '../payments/stripe.ts';
import { httpHeadersOf, httpStatusOf } from './error-status.ts';
import type { Logger } from './logger.ts';
import type { RequestState } from './request-state.ts';

/** The request id of a request: a trusted proxy's X-Request-Id, or a new one. */
export function requestIdOf(incoming: string | undefined, trustProxy: boolean): string {
  return trustProxy && incoming && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
}

/** The theme preference of a `theme` cookie's value. */
export function themeOf(cookie: string | undefined): RequestState['theme'] {
  return cookie === 'light' || cookie === 'dark' ? cookie : 'system';
}

/**
 * ctx.state.log, made when first used: a pino child logger costs more than most requests that
 * never log anything.
 */
export function lazyRequestLog(state: Record<string, unknown>, log: Logger, requestId: string): void {
  let child: Logger | undefined;
  Object.defineProperty(state, 'log', {
    configurable: true,
    enumerable: true,
    get: () => (child ??= log.child({ requestId })),
    set: (value: Logger) => {
      child = value;
    },
  });
}

/** A request id (kept from a trusted proxy's X-Request-Id), a child logger, and one log line per request. */
export function requestContext(log: Logger, trustProxy: boolean): Middleware {
  return async (ctx, next) => {
    const requestId = requestIdOf(ctx.get('x-request-id'), trustProxy);
    ctx.state.requestId = requestId;
    lazyRequestLog(ctx.state, log, requestId);
    ctx.state.clientIp = ctx.ip;
    ctx.state.userAgent = ctx.get('user-agent').slice(0, 300);
    ctx.state.theme = themeOf(ctx.cookies.get('theme'));
    ctx.set('X-Request-Id', requestId);
    if (!log.isLevelEnabled('info')) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      const done = () =>
        ctx.state.log.info(
          {
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round(performance.now() - started),
          },
          'request',
        );
      if (ctx.res.writableFinished || ctx.respond === false) done();
      else ctx.res.once('close', done);
    }
  };
}

/**
 * In production behind a proxy (a request carries X-Forwarded-Proto or X-Forwarded-For) with
 * TRUST_PROXY off, the app sees plain HTTP from the proxy's address: cookies lose Secure, every
 * visitor shares one rate-limit key. Said loudly, once per process, with the fix.
 */
export function warnOnUntrustedProxy(config: Config, log: Logger): Middleware {
  let warned = !config.isProduction || config.trustProxy;
  return async (ctx, next) => {
    if (!warned && (ctx.get('x-forwarded-proto') || ctx.get('x-forwarded-for'))) {
      warned = true;
      log.warn(
        'requests come through a proxy (X-Forwarded-* headers) but TRUST_PROXY is false: cookies are not Secure and all visitors share the proxy address for rate limits. Set TRUST_PROXY=true when the proxy is yours and overwrites those headers.',
      );
    }
    await next();
  };
}

/** The Content-Security-Policy with the given script sources (a nonce, or hashes of inline scripts). */
export function buildCsp(config: Config, scriptSources: string[]): string {
  const dev = config.env === 'development';
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptSources.join(' ')}${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' https:",
    "font-src 'self'",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    'frame-src https://www.youtube-nocookie.com',
    "object-src 'none'",
    "base-uri 'self'",
    // Without JavaScript the checkout form is answered with a redirect to Stripe's payment page.
    `form-action 'self'${paymentPageOrigin(config) ? ` ${paymentPageOrigin(config)}` : ''}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Every security header but the CSP, which depends on the scripts a response allows. */
function fixedSecurityHeaders(config: Config): [string, string][] {
  const headers: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=()'],
  ];
  if (config.isProduction)
    headers.push([
      'Strict-Transport-Security',
      config.hstsIncludeSubdomains ? 'max-age=31536000; includeSubDomains' : 'max-age=31536000',
    ]);
  return headers;
}

/** The security headers of a response that allows the given script sources, CSP first. */
export function securityHeaderList(config: Config, scriptSources: string[]): [string, string][] {
  return [['Content-Security-Policy', buildCsp(config, scriptSources)], ...fixedSecurityHeaders(config)];
}

/**
 * Security headers, with a fresh script nonce per response (no 'unsafe-inline' for scripts). An
 * API answer runs no script: its policy has no nonce, made once.
 */
export function securityHeaders(config: Config): Middleware {
  const fixed = fixedSecurityHeaders(config);
  const apiCsp = buildCsp(config, []);
  return async (ctx, next) => {
    if (ctx.path.startsWith('/api/')) {
      ctx.set('Content-Security-Policy', apiCsp);
      for (const [name, value] of fixed) ctx.res.setHeader(name, value);
      return next();
    }
    const nonce = randomBytes(16).toString('base64');
    ctx.state.nonce = nonce;
    ctx.set('Content-Security-Policy', buildCsp(config, [`'nonce-${nonce}'`]));
    for (const [name, value] of fixed) ctx.res.setHeader(name, value);
    await next();
  };
}

/**
 * Compression that flushes every chunk, so streamed HTML is not held back. Gzip at level 3, not 6:
 * measured on rendered pages, a third of the CPU for about 9% more bytes (stored pages are
 * compressed once, at level 6, by the page cache).
 */
export function compression(): Middleware {
  return compress({
    threshold: 1024,
    gzip: { flush: zlib.Z_SYNC_FLUSH, level: 3 },
    deflate: false,
    br: { flush: zlib.BROTLI_OPERATION_FLUSH, params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    zstd: { flush: zlib.ZSTD_e_flush },
  } as Parameters<typeof compress>[0]);
}

export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';

/** A 503 that tells clients when to retry: JSON for the API, a small page otherwise. */
export function respondUnavailable(ctx: Context): void {
  ctx.status = 503;
  ctx.set('Retry-After', '5');
  ctx.set('Cache-Control', 'no-store');
  if (ctx.path.startsWith('/api/') || ctx.path === '/api') {
    ctx.body = { message: UNAVAILABLE_MESSAGE };
  } else {
    ctx.type = 'html';
    ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Temporarily unavailable — Penstand</title><meta name="viewport" content="width=device-width,initial-scale=1"></head><body style="font-family:system-ui;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1>Temporarily unavailable</h1><p>${UNAVAILABLE_MESSAGE}</p></body></html>`;
  }
}

/** A NUL character is never valid in a URL we serve, and PostgreSQL text cannot hold one. */
export function refuseNulInUrl(): Middleware {
  return async (ctx, next) => {
    if (/%00/i.test(ctx.originalUrl) || ctx.originalUrl.includes('\0')) {
      ctx.status = 400;
      ctx.body = { message: 'The address must not contain NUL characters.' };
      return;
    }
    await next();
  };
}

/**
 * A response made for a session (a signed-in user, or a guest with a cart or a like) is theirs
 * alone: no shared cache may keep it, and the browser should not store it either.
 */
export function privateForSessions(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      // Refusals too: errorHandler, further out, answers them with these headers kept.
      const session: RequestState['session'] | undefined = ctx.state.session;
      if (session?.id || session?.user) ctx.set('Cache-Control', 'private, no-store');
    }
  };
}

/** While the database is unreachable, answer 503 at once instead of queueing on the pool. */
export function failFastWhenDatabaseDown(isDown: () => boolean): Middleware {
  return async (ctx, next) => {
    if (isDown() && ctx.path !== '/api/health') return respondUnavailable(ctx);
    await next();
  };
}

/** JSON {message} for /api, a plain HTML page otherwise; never a stack trace outside development. */
export function errorHandler(config: Config, onConnectionError: () => void = () => {}): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (isConnectionError(error) && !ctx.headerSent) {
        onConnectionError();
        ctx.state.log?.warn({ err: (error as Error).message }, 'database unreachable');
        return respondUnavailable(ctx);
      }
      if (isPoolTimeout(error) && !ctx.headerSent) {
        ctx.state.log?.warn({ path: ctx.path }, 'no database connection free in time');
        return respondUnavailable(ctx);
      }
      const pgCode = (error as { code?: unknown }).code;
      if (typeof pgCode === 'string' && /^(22|23)[0-9A-Z]{3}$/.test(pgCode) && !ctx.headerSent) {
        // Data the database refused (bad encoding, out of range, a constraint): the client's input.
        ctx.state.log?.warn({ pgCode, path: ctx.path }, 'input refused by the database');
        ctx.status = pgCode.startsWith('23') ? 409 : 400;
        ctx.body = {
          message: pgCode.startsWith('23')
            ? 'That conflicts with existing data.'
            : 'The request contains invalid data.',
        };
        return;
      }
      const err = error as Error & { expose?: boolean };
      const status = httpStatusOf(error);
      const exposed = status < 500 || err.expose;
      const message = exposed ? err.message : 'Something went wrong. Please try again.';
      if (status >= 500) ctx.state.log?.error({ err }, 'request failed');
      if (ctx.headerSent) return;
      ctx.status = status;
      for (const [k, v] of Object.entries(httpHeadersOf(error))) ctx.set(k, v);
      if (ctx.path.startsWith('/api/') || ctx.path === '/api' || ctx.accepts('html', 'json') === 'json') {
        ctx.body = { message };
      } else {
        const detail =
          config.env === 'development' && status >= 500 ? `<pre>${escapeHtml(err.stack ?? '')}</pre>` : '';
        ctx.type = 'html';
        ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status} — Penstand</title><meta name="viewport" content="width=device-width,initial-scale=1"></head><body style="font-family:system-ui;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1>${status}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the blog</a></p>${detail}</body></html>`;
      }
    }
  };
}
