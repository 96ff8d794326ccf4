import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context } from 'koa';
import { ByteLru } from './byte-lru.ts';
import { anonymousTheme } from './page-cache.ts';

const gzipAsync = promisify(gzip);

/** A JSON answer serialized and gzipped once, to be sent to any number of requests. */
export type EncodedJson = { json: Buffer; gzip: Buffer };

type Entry = EncodedJson & { storedAt: number; version: number };

/** How an anonymous request's URL was answered: the entry's key, and what the route set besides. */
export type AnonymousAnswer = { key: string; cacheControl: string; route: string };

/** URLs remembered for anonymous answers (any query string makes one): dropped all at once past this. */
const ANONYMOUS_URLS_KEPT = 10_000;

export async function encodeJson(value: unknown): Promise<EncodedJson> {
  const json = Buffer.from(JSON.stringify(value));
  return { json, gzip: await gzipAsync(json) };
}

/** Sends encoded JSON as it is, gzipped to a client that accepts it. */
export function sendEncodedJson(ctx: Context, encoded: EncodedJson): void {
  ctx.type = 'application/json; charset=utf-8';
  ctx.vary('Accept-Encoding');
  ctx.compress = false;
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = encoded.gzip;
  } else {
    ctx.body = encoded.json;
  }
}

/** Whatever drops stored pages drops these answers too: the page cache's version (see page-cache.ts). */
type Invalidations = { currentVersion(): number };

/**
 * API answers that are the same for every reader who is not an admin (published posts, their
 * categories and tags): serialized and gzipped once, then sent as stored bytes for ttlMs. Entries
 * carry the page cache's version, so an admin's write in any process, a scheduled publication or a
 * lost invalidation listener drops them with the stored pages. A burst of requests for a missing
 * key waits for one computation; total size is bounded, least recently used first out. A key must
 * be decided by the request's URL and its visitor's session alone: an anonymous reader's URL is
 * remembered with its key, so the next one is answered before any middleware (see fast-path.ts).
 */
export class JsonCache {
  private readonly entries: ByteLru<Entry>;
  private readonly pending = new Map<string, { version: number; entry: Promise<Entry> }>();
  private readonly invalidations: Invalidations;
  private readonly ttlMs: number;
  private readonly anonymous = new Map<string, AnonymousAnswer>();

  constructor(invalidations: Invalidations, opts: { ttlMs: number; maxBytes?: number }) {
    this.invalidations = invalidations;
    this.ttlMs = opts.ttlMs;
    this.entries = new ByteLru(opts.maxBytes ?? 16 * 1024 * 1024, (e) => e.json.length + e.gzip.length);
  }

  /**
   * Answers ctx with the stored JSON of key, or with compute()'s result, stored on the way. A
   * disabled cache (ttlMs 0) answers with compute()'s result as Koa serializes any body.
   */
  async respond(ctx: Context, key: string, compute: () => Promise<unknown>): Promise<void> {
    if (this.ttlMs <= 0) {
      ctx.body = await compute();
      return;
    }
    let entry = this.get(key);
    // Readers who waited for another request's computation were spared one: a hit.
    let source = 'HIT';
    if (!entry) {
      const fill = this.fill(key, compute);
      entry = await fill.entry;
      if (fill.computed) source = 'MISS';
    }
    ctx.set('X-Cache', source);
    sendEncodedJson(ctx, entry);
    if (anonymousTheme(ctx.req.headers) && !this.anonymous.has(ctx.url)) {
      if (this.anonymous.size >= ANONYMOUS_URLS_KEPT) this.anonymous.clear();
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'other';
      this.anonymous.set(ctx.url, { key, cacheControl: ctx.response.get('cache-control'), route });
    }
  }

  /** The stored answer an anonymous request for this URL gets, when one is stored. */
  storedForAnonymous(url: string): { answer: AnonymousAnswer; entry: EncodedJson } | undefined {
    const answer = this.anonymous.get(url);
    const entry = answer && this.get(answer.key);
    return entry && answer ? { answer, entry } : undefined;
  }

  private get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== this.invalidations.currentVersion() || Date.now() - entry.storedAt > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private fill(key: string, compute: () => Promise<unknown>): { entry: Promise<Entry>; computed: boolean } {
    const version = this.invalidations.currentVersion();
    const pending = this.pending.get(key);
    // A computation started before an invalidation may have read the old data: not joined.
    if (pending && pending.version === version) return { entry: pending.entry, computed: false };
    const entry = (async () => ({ ...(await encodeJson(await compute())), storedAt: Date.now(), version }))();
    const mine = { version, entry };
    this.pending.set(key, mine);
    const settle = () => {
      if (this.pending.get(key) === mine) this.pending.delete(key);
    };
    entry.then((done) => {
      settle();
      if (done.version === this.invalidations.currentVersion()) this.entries.set(key, done);
    }, settle);
    return { entry, computed: true };
  }
}
