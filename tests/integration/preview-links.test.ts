import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_MESSAGES } from '../../src/blog/post-messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  // The page cache on, to show a preview is never stored in it.
  app = await startTestApp({ env: { PAGE_CACHE_TTL_SECONDS: '60' } });
  admin = await signedInSession(app, { role: 'admin' });
});
afterAll(async () => {
  await app?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...admin.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function draftPost(title: string) {
  const created = await call('POST', '/api/posts', {
    title,
    content: 'A draft for a **friend** to read.',
    excerpt: 'Not out yet',
    category: 'Technology',
    status: 'draft',
  });
  expect(created.status).toBe(201);
  return created.body.post as { id: number; slug: string };
}

/** An anonymous reader's request, as a browser without cookies makes it. */
const anonymous = (url: string) => fetch(url.replace(/^https?:\/\/[^/]+/, app.url));

describe('draft preview links', () => {
  it('shows the draft to an anonymous reader, privately and unindexed, until revoked', async () => {
    const post = await draftPost('Secret Draft');
    const link = await call('POST', `/api/posts/${post.id}/preview-link`);
    expect(link.status).toBe(201);
    const { url, expiresAt } = link.body;
    // 32 random bytes in base64url: 256 bits.
    const token = /\/preview\/([A-Za-z0-9_-]{43})$/.exec(url)?.[1] ?? '';
    expect(token).not.toBe('');
    const days = (Date.parse(expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    // Only the token's hash is stored.
    const row = await app.services.db('post_preview_links').where({ post_id: post.id }).first();
    expect(row.token_hash.equals(createHash('sha256').update(token).digest())).toBe(true);
    expect(JSON.stringify(row)).not.toContain(token);

    for (let n = 0; n < 2; n++) {
      const res = await anonymous(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
      const html = await res.text();
      expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
      expect(html).toContain('class="preview-banner"');
      expect(html).toContain('<h1>Secret Draft</h1>');
      expect(html).toContain('<strong>friend</strong>');
      // Plain HTML like the post page: no React runtime.
      expect(html).not.toMatch(/<script[^>]*type="module"/);
    }
    expect(app.services.pageCache.size).toBe(0);
    // The draft is still no public post, nor in the sitemap or the feed.
    expect((await fetch(`${app.url}/post/${post.slug}`)).status).toBe(404);
    for (const feed of ['/sitemap.xml', '/rss.xml']) {
      const text = await (await fetch(`${app.url}${feed}`)).text();
      expect(text).not.toContain(post.slug);
      expect(text).not.toContain('/preview/');
    }

    // A new link replaces the old one.
    const second = (await call('POST', `/api/posts/${post.id}/preview-link`)).body.url;
    expect(second).not.toBe(url);
    expect((await anonymous(url)).status).toBe(404);
    expect((await anonymous(second)).status).toBe(200);

    expect(await call('DELETE', `/api/posts/${post.id}/preview-link`)).toEqual({
      status: 200,
      body: { message: POST_MESSAGES.previewLinkRevoked },
    });
    const revoked = await anonymous(second);
    expect(revoked.status).toBe(404);
    expect(revoked.headers.get('cache-control')).toBe('private, no-store');
    expect(await revoked.text()).toContain(POST_MESSAGES.previewNotFound);
    expect(await call('DELETE', `/api/posts/${post.id}/preview-link`)).toEqual({
      status: 404,
      body: { message: POST_MESSAGES.previewLinkNotFound },
    });
  });

  it('answers 404 after 14 days, and for tokens never given', async () => {
    const post = await draftPost('Old Draft');
    const { url } = (await call('POST', `/api/posts/${post.id}/preview-link`)).body;
    expect((await anonymous(url)).status).toBe(200);
    await app.services
      .db('post_preview_links')
      .where({ post_id: post.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    expect((await anonymous(url)).status).toBe(404);

    for (const guess of [`A${url.slice(-42)}`, 'short', `${'x'.repeat(43)}!`, 'A'.repeat(500)])
      expect((await fetch(`${app.url}/preview/${encodeURIComponent(guess)}`)).status, guess).toBe(404);
    expect((await call('POST', '/api/posts/999999/preview-link')).status).toBe(404);
    expect((await call('POST', '/api/posts/abc/preview-link')).status).toBe(404);
  });
});
