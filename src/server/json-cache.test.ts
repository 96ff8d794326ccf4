import http from 'node:http';
import { Socket } from 'node:net';
import { gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { JsonCache } from './json-cache.ts';

function context(acceptEncoding = 'identity'): Koa.Context {
  const req = new http.IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = '/api/posts';
  req.headers = { 'accept-encoding': acceptEncoding };
  return new Koa().createContext(req, new http.ServerResponse(req));
}

/** Answers one request and returns what it sent: the cache's verdict and the JSON. */
async function ask(cache: JsonCache, key: string, compute: () => Promise<unknown>) {
  const ctx = context();
  await cache.respond(ctx, key, compute);
  return { source: ctx.response.get('X-Cache'), body: JSON.parse(String(ctx.body)) };
}

function versions() {
  return {
    version: 0,
    currentVersion() {
      return this.version;
    },
  };
}

describe('JsonCache', () => {
  it('sends the stored answer gzipped to clients that accept it', async () => {
    const cache = new JsonCache(versions(), { ttlMs: 60_000 });
    await ask(cache, 'k', async () => ({ n: 1 }));
    const ctx = context('gzip, deflate');
    await cache.respond(ctx, 'k', async () => ({ n: 2 }));
    expect(ctx.response.get('Content-Encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(ctx.body as Buffer).toString())).toEqual({ n: 1 });
  });

  it('neither stores nor lends out an answer computed across an invalidation', async () => {
    const source = versions();
    const cache = new JsonCache(source, { ttlMs: 60_000 });
    let release = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = ask(cache, 'k', async () => {
      await slow;
      return { data: 'old' };
    });
    source.version++; // an admin's write while the old data is being read
    const after = ask(cache, 'k', async () => ({ data: 'new' }));
    release();
    expect((await before).body).toEqual({ data: 'old' });
    expect(await after).toEqual({ source: 'MISS', body: { data: 'new' } });
    expect(await ask(cache, 'k', async () => ({ data: 'newer' }))).toEqual({
      source: 'HIT',
      body: { data: 'new' },
    });
  });

  it('does not store a failed computation', async () => {
    const cache = new JsonCache(versions(), { ttlMs: 60_000 });
    await expect(
      ask(cache, 'k', async () => {
        throw new Error('database down');
      }),
    ).rejects.toThrow('database down');
    expect(await ask(cache, 'k', async () => ({ ok: true }))).toEqual({ source: 'MISS', body: { ok: true } });
  });

  it('keeps within its byte budget by dropping the least recently used answers', async () => {
    const big = (tag: string) => async () => ({ tag, filler: 'x'.repeat(400) });
    // Each answer is about 430 bytes plain plus its gzip: two fit in 1,200 bytes, three do not.
    const cache = new JsonCache(versions(), { ttlMs: 60_000, maxBytes: 1_200 });
    await ask(cache, 'a', big('a'));
    await ask(cache, 'b', big('b'));
    expect((await ask(cache, 'a', big('a2'))).source).toBe('HIT'); // a is now the most recent
    await ask(cache, 'c', big('c'));
    expect((await ask(cache, 'a', big('a3'))).body.tag).toBe('a');
    expect((await ask(cache, 'b', big('b2'))).body.tag).toBe('b2');
  });
});
