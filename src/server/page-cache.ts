import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import http from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { Context, Middleware } from 'koa';
import pg from '../db/pg.ts';
import { ByteLru } from './byte-lru.ts';
import type { Logger } from './logger.ts';
import { themeOf } from './middleware.ts';
import type { RequestState } from './request-state.ts';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

type Entry = {
  body: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  /** The Last-Modified header: made once, at store time. */
  lastModified: string;
  contentType: string;
  /** Inline scripts allowed by hash: the stored page is byte-identical for every visitor. */
  scriptHashes: string[];
  storedAt: number;
  version: number;
  meta: Record<string, string>;
};

/** How long a reader waits for a render of the same page already under way. */
const FILL_WAIT_MS = 5_000;

/** Headers a route may set to tell the cache something; stripped before the response leaves. */
export const CACHE_META_PREFIX = 'x-page-cache-';

/** Never stored: APIs, files, download links and secret preview links (a draft is not for every visitor). */
const PASS_THROUGH_PREFIXES = ['/api', '/assets/', '/uploads/', '/downloads/', '/metrics', '/_', '/preview/'];

/** The NOTIFY channel on which a process tells the others to drop their stored pages. */
export const PAGE_CACHE_CHANNEL = 'penstand_page_cache';

/** The header a background refresh carries: this process's secret, so no one else can send it. */
export const REFRESH_HEADER = 'x-page-cache-refresh';

/**
 * Rendered pages for anonymous readers. A visitor with no cookie but `theme` gets the stored page
 * of its URL and theme. An entry is fresh for ttlMs; for staleMs more it is still served
 * (stale-while-revalidate) while this process renders the page again in the background, through
 * its own server as an anonymous reader would ask for it. Every process drops all entries, stale
 * ones too, when any process invalidates (an admin's write, a scheduled publication): PostgreSQL
 * NOTIFY carries it across. Each stored page is sent with a CSP that allows exactly its inline
 * scripts by hash, so it can be compressed once and sent byte for byte (the nonce attributes left
 * in it are never in that CSP); pages rendered live keep a fresh nonce per response.
 */
export class PageCache {
  private readonly entries: ByteLru<Entry>;
  private version = 0;
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly maxBytes: number;
  private readonly refreshing = new Set<string>();
  /** Keys being rendered for the cache right now, and how to tell their waiters it is over. */
  private readonly fills = new Map<string, { done: Promise<void>; finish: () => void }>();
  private readonly refreshSecret = randomBytes(16).toString('hex');
  private listener: pg.Client | null = null;
  private notifyUrl: string | null = null;
  private readonly notifying = new Set<Promise<void>>();
  private closed = false;
  /** Our own notifications come back to our listener; this tells them apart. */
  private readonly instanceId = randomUUID();

  constructor(opts: { ttlMs: number; staleMs?: number; maxBytes?: number }) {
    this.ttlMs = opts.ttlMs;
    this.staleMs = opts.staleMs ?? 0;
    this.maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
    this.entries = new ByteLru(this.maxBytes, (e) => e.body.length + e.gzip.length + e.br.length);
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cache key of a request, or null when it must be rendered for this visitor alone. */
  keyOf(req: IncomingMessage): string | null {
    if (!this.enabled || (req.method !== 'GET' && req.method !== 'HEAD')) return null;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (PASS_THROUGH_PREFIXES.some((p) => path.startsWith(p)) || path.endsWith('.data')) return null;
    const theme = anonymousTheme(req.headers);
    return theme && `${theme}|${url}`;
  }

  /** The stored page of a key, fresh or (within staleMs past its TTL) stale: see isStale. */
  get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== this.version || Date.now() - entry.storedAt > this.ttlMs + this.staleMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Past its TTL: still sent, and rendered again meanwhile. */
  isStale(entry: Entry): boolean {
    return Date.now() - entry.storedAt > this.ttlMs;
  }

  /** True when a request is this process's own background refresh. */
  isRefresh(req: IncomingMessage): boolean {
    return req.headers[REFRESH_HEADER] === this.refreshSecret;
  }

  /**
   * Renders a stale page again without keeping anyone waiting: one request to this process's own
   * server (the address the reader reached), as an anonymous reader with the same theme cookie.
   * The response is stored on its way out like any cacheable miss. One refresh per key at a time.
   */
  refresh(key: string, ctx: Context): void {
    if (this.refreshing.has(key)) return;
    const { localAddress, localPort } = ctx.req.socket;
    if (!localAddress || !localPort) return;
    this.refreshing.add(key);
    const done = () => this.refreshing.delete(key);
    const theme = ctx.cookies.get('theme');
    const req = http.request(
      {
        host: localAddress,
        port: localPort,
        path: ctx.url,
        method: 'GET',
        headers: {
          [REFRESH_HEADER]: this.refreshSecret,
          'accept-encoding': 'identity',
          'user-agent': 'penstand-page-cache',
          ...(theme ? { cookie: `theme=${theme}` } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('close', done);
      },
    );
    req.setTimeout(30_000, () => req.destroy());
    req.on('error', done);
    req.end();
  }

  async store(key: string, body: Buffer, contentType: string, meta: Record<string, string>, version: number) {
    if (version !== this.version || body.length > this.maxBytes / 8) return;
    const [gz, br] = await Promise.all([
      gzipAsync(body, { level: 6 }),
      brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6 } }),
    ]);
    if (version !== this.version) return; // invalidated while compressing
    const storedAt = Date.now();
    const entry: Entry = {
      body,
      gzip: gz,
      br,
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      lastModified: new Date(storedAt).toUTCString(),
      contentType,
      scriptHashes: inlineScriptHashes(body.toString('utf8')),
      storedAt,
      version,
      meta,
    };
    this.entries.set(key, entry);
  }

  /**
   * Marks a key as being rendered for the cache. Returns false when another request already is:
   * that one's page is worth waiting for (see waitForFill) rather than rendering it again.
   */
  startFill(key: string): boolean {
    if (this.fills.has(key)) return false;
    let finish = () => {};
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    this.fills.set(key, { done, finish });
    return true;
  }

  endFill(key: string): void {
    const fill = this.fills.get(key);
    if (!fill) return;
    this.fills.delete(key);
    fill.finish();
  }

  /** Waits (at most ms) for the render of a key under way, then gives its page, if it was stored. */
  async waitForFill(key: string, ms: number): Promise<Entry | undefined> {
    const fill = this.fills.get(key);
    if (!fill) return undefined;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([fill.done, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    return this.get(key);
  }

  currentVersion(): number {
    return this.version;
  }

  /** Whether something made at this version and time is still good to send (not invalidated, within the TTL). */
  isCurrent(version: number, storedAt: number): boolean {
    return version === this.version && Date.now() - storedAt <= this.ttlMs;
  }

  /** Drops every entry here, and tells the other processes to do the same. */
  invalidate(): void {
    this.dropAll();
    if (!this.notifyUrl) return;
    // Kept, so that close() waits for it: a command that ends right after an import would
    // otherwise stop its database under this connection.
    const sent = this.notify().finally(() => this.notifying.delete(sent));
    this.notifying.add(sent);
  }

  /** Listens for invalidations from other processes on the same database. */
  async listen(databaseUrl: string, log: Logger): Promise<void> {
    this.notifyUrl = databaseUrl;
    // One reconnection at a time: a failed connect can also emit 'error', and two timers per
    // failure would double the attempts every second while the database is away.
    let retrying = false;
    const retry = () => {
      if (retrying || this.closed) return;
      retrying = true;
      setTimeout(() => {
        retrying = false;
        void connect();
      }, 1_000).unref();
    };
    const connect = async () => {
      if (this.closed) return;
      const client = new pg.Client({
        connectionString: databaseUrl,
        application_name: 'penstand-page-cache',
      });
      client.on('notification', (message) => {
        if (message.payload !== this.instanceId) this.dropAll();
      });
      client.on('error', () => {
        this.dropAll(); // missed notifications are possible while disconnected
        if (this.listener === client) this.listener = null;
        retry();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${PAGE_CACHE_CHANNEL}`);
        this.listener = client;
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'page cache listener could not connect; retrying');
        await client.end().catch(() => {});
        retry();
      }
    };
    await connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.notifying);
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }

  private async notify(): Promise<void> {
    const client = new pg.Client({ connectionString: this.notifyUrl ?? undefined });
    try {
      await client.connect();
      await client.query('SELECT pg_notify($1, $2)', [PAGE_CACHE_CHANNEL, this.instanceId]);
    } catch {
      // Other processes fall back on the TTL.
    } finally {
      await client.end().catch(() => {});
    }
  }

  private dropAll(): void {
    this.version++;
    this.entries.clear();
  }
}

function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\ssrc=/.test(match[1])) continue;
    hashes.add(`'sha256-${createHash('sha256').update(match[2], 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/**
 * The theme of an anonymous reader's request (no credentials, no cookie but `theme`), or null for
 * a visitor whose answers are their own. Read from the raw headers: it runs before any middleware.
 */
export function anonymousTheme(headers: IncomingHttpHeaders): RequestState['theme'] | null {
  if (headers.authorization || headers['x-session-id']) return null;
  const cookie = headers.cookie;
  if (!cookie) return 'system';
  let theme: string | undefined;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    const name = (eq === -1 ? part : part.slice(0, eq)).trim();
    if (!name) continue;
    if (name !== 'theme') return null;
    // The first one counts, as the cookies library reads it (quotes removed).
    theme ??= part.slice(eq + 1).replace(/^"(.*)"$/, '$1');
  }
  return themeOf(theme);
}

type Encoding = 'br' | 'gzip' | 'identity';
/** Accept-Encoding values seen recently and what they chose: browsers send a handful of them. */
const encodings = new Map<string, Encoding>();

/** The encoding a stored answer is sent in (negotiated as Koa's acceptsEncodings does), remembered per header value. */
export function storedEncoding(ctx: Context, offered: 'br' | 'gzip'): Encoding {
  const header = ctx.req.headers['accept-encoding'] ?? '';
  const key = `${offered} ${header}`;
  let chosen = encodings.get(key);
  if (!chosen) {
    const accepted =
      offered === 'br'
        ? ctx.acceptsEncodings('br', 'gzip', 'identity')
        : ctx.acceptsEncodings('gzip', 'identity');
    chosen = accepted === 'br' || accepted === 'gzip' ? accepted : 'identity';
    if (encodings.size >= 100) encodings.clear();
    encodings.set(key, chosen);
  }
  return chosen;
}

/**
 * Writes a stored answer's status, headers (the request's id and X-Cache, then those made with the
 * entry) and body straight to the response (Koa's respond is skipped).
 */
export function sendStored(
  ctx: Context,
  requestId: string,
  xCache: 'HIT' | 'STALE',
  headers: [string, string][],
  body: { identity: Buffer; gzip: Buffer; br?: Buffer },
  contentType: string,
  conditional: boolean,
): void {
  const { res, req } = ctx;
  ctx.respond = false;
  // Koa's fresh check, only for a conditional request: it reads the response's headers.
  const revalidating =
    conditional && Boolean(req.headers['if-none-match'] || req.headers['if-modified-since']);
  if (revalidating) {
    // Koa judges freshness only for a 2xx or 304 answer.
    res.statusCode = 200;
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-Cache', xCache);
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i][0], headers[i][1]);
    if (ctx.fresh) {
      res.statusCode = 304;
      res.end();
      return;
    }
  }
  const encoding = storedEncoding(ctx, body.br ? 'br' : 'gzip');
  const bytes = (encoding === 'br' ? body.br : encoding === 'gzip' ? body.gzip : body.identity) as Buffer;
  // One writeHead with the headers as a flat list: no per-header bookkeeping (setHeader's
  // validation and map) when none was set before. Headers set earlier (by the middleware a
  // rendered request passed, or above) are merged by Node.
  const flat: string[] = ['X-Request-Id', requestId, 'X-Cache', xCache];
  if (!revalidating) for (let i = 0; i < headers.length; i++) flat.push(headers[i][0], headers[i][1]);
  flat.push('Content-Type', contentType, 'Content-Length', String(bytes.length));
  if (encoding !== 'identity') flat.push('Content-Encoding', encoding);
  res.writeHead(200, flat);
  ctx.state.storedType = contentType;
  if (req.method === 'HEAD') res.end();
  else res.end(bytes);
}

/**
 * Sends a stored page: its headers (security headers with a CSP that allows exactly its inline
 * scripts, ETag, Last-Modified, Vary, Cache-Control) are made on its first answer and kept with it;
 * a request adds only its id and X-Cache. A stale page is sent and rendered again meanwhile.
 */
export type StoredPageSender = (ctx: Context, key: string, entry: Entry, requestId: string) => void;

export function storedPageSender(
  cache: PageCache,
  securityHeaders: (scriptSources: string[]) => [string, string][],
): StoredPageSender {
  const prepared = new WeakMap<Entry, [string, string][]>();
  return (ctx, key, entry, requestId) => {
    let shared = prepared.get(entry);
    if (!shared) {
      shared = [
        ...securityHeaders(entry.scriptHashes),
        ['ETag', entry.etag],
        ['Last-Modified', entry.lastModified],
        ['Cache-Control', 'public, max-age=0, must-revalidate'],
        ['Vary', 'Accept-Encoding, Cookie'],
      ];
      prepared.set(entry, shared);
    }
    const stale = cache.isStale(entry);
    if (stale) cache.refresh(key, ctx);
    ctx.state.pageMeta = entry.meta;
    sendStored(
      ctx,
      requestId,
      stale ? 'STALE' : 'HIT',
      shared,
      { identity: entry.body, gzip: entry.gzip, br: entry.br },
      entry.contentType,
      true,
    );
  };
}

/** Serves stored pages; marks cacheable misses so the response can be stored on its way out. */
export function pageCacheMiddleware(cache: PageCache, send: StoredPageSender): Middleware {
  return async (ctx, next) => {
    const key = cache.keyOf(ctx.req);
    if (!key) return next();
    const refresh = cache.isRefresh(ctx.req);
    // Readers who ask for a page while it is being rendered for the cache wait for that render
    // instead of starting their own: a burst of misses costs one render, not fifty.
    const entry = refresh ? undefined : (cache.get(key) ?? (await cache.waitForFill(key, FILL_WAIT_MS)));
    if (entry) return send(ctx, key, entry, ctx.state.requestId);
    ctx.state.pageCache = { key, version: cache.currentVersion(), refresh };
    ctx.set('X-Cache', 'MISS');
    if (!cache.startFill(key)) return next();
    // Ended once the page is stored (captureForCache), or here when it will not be (not a 200
    // page, a cookie set, an error).
    try {
      await next();
    } finally {
      if (!ctx.state.pageCacheStoring) cache.endFill(key);
    }
  };
}

/**
 * Tees a rendered response into the cache when it is cacheable: a 200 HTML page that sets no
 * cookie and allows storing. Meta headers (x-page-cache-*) are kept with the entry and removed from the response.
 */
export function captureForCache(ctx: Context, cache: PageCache, body: Readable): Readable {
  const marker = ctx.state.pageCache;
  const meta: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (name.startsWith(CACHE_META_PREFIX)) {
      meta[name.slice(CACHE_META_PREFIX.length)] = String(value);
      ctx.remove(name);
    }
  }
  ctx.state.pageMeta = meta;
  const contentType = String(ctx.response.get('content-type'));
  if (
    !marker ||
    ctx.status !== 200 ||
    ctx.response.get('set-cookie') ||
    // A page that says it must not be stored (an order's page, reached by its secret link) is not.
    /no-store|private/.test(String(ctx.response.get('cache-control'))) ||
    !contentType.startsWith('text/html')
  ) {
    return body;
  }
  const chunks: Buffer[] = [];
  const tee = new PassThrough();
  tee.on('data', (chunk: Buffer) => chunks.push(chunk));
  ctx.state.pageCacheStoring = true;
  tee.on('end', () => {
    void cache
      .store(marker.key, Buffer.concat(chunks), contentType, meta, marker.version)
      .finally(() => cache.endFill(marker.key));
  });
  tee.on('close', () => {
    if (!tee.readableEnded) cache.endFill(marker.key); // aborted: nothing will be stored
  });
  body.on('error', (err) => tee.destroy(err));
  return body.pipe(tee);
}

/** Any successful write by an admin may change what readers see: drop the stored pages. */
export function invalidateOnAdminWrites(cache: PageCache): Middleware {
  return async (ctx, next) => {
    // Decided by who made the request, before it ran: an admin signing in changes no page.
    const byAdmin = ctx.state.session?.user?.role === 'admin';
    await next();
    const unsafe = ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'OPTIONS';
    if (byAdmin && unsafe && ctx.status < 400 && !ctx.state.pagesUnchanged) cache.invalidate();
  };
}
