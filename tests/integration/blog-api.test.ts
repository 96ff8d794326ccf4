import { statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLValidator } from 'fast-xml-parser';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
});
afterAll(() => app.close());

const json = async (path: string, init?: RequestInit) => {
  const res = await fetch(`${app.url}${path}`, init);
  return { status: res.status, body: await res.json() };
};

describe('GET /api/posts', () => {
  it('lists published posts with pagination, view counts and authors, never drafts to the public', async () => {
    const { status, body } = await json('/api/posts?limit=5&page=2');
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ page: 2, limit: 5, total: 16, pages: 4 });
    expect(body.posts).toHaveLength(5);
    for (const post of body.posts) {
      expect(post.status).toBe('published');
      expect(typeof post.viewCount).toBe('number');
      expect(post.author).toEqual({ firstName: 'Alex', lastName: 'Morgan', username: 'admin' });
      expect(JSON.stringify(post)).not.toContain('@');
    }
    expect((await json('/api/posts?status=draft')).status).toBe(401);
  });

  it('shows drafts to admins', async () => {
    const { headers } = await signedInSession(app, { role: 'admin' });
    const { body } = await json('/api/posts?status=draft', { headers });
    expect(body.posts.map((p: { title: string }) => p.title)).toEqual(
      expect.arrayContaining(['Draft: Thoughts on Pricing Courses']),
    );
  });

  it('finds posts by partial words, weighting titles first', async () => {
    const { body } = await json('/api/posts?search=postgre%20ind');
    expect(body.posts[0].title).toBe('A Practical Guide to PostgreSQL Indexes');
    const none = await json(`/api/posts?search=${encodeURIComponent("'; DROP TABLE posts; --")}`);
    expect(none.status).toBe(200);
    expect(none.body.posts).toEqual([]);
  });

  it('filters by category, returns one post by slug or id, and the categories and tags in use', async () => {
    const design = await json('/api/posts?category=Design');
    expect(design.body.posts.every((p: { category: string }) => p.category === 'Design')).toBe(true);
    const post = await publishedPost(app);
    const bySlug = await json(`/api/posts?slug=${post.slug}`);
    expect(bySlug.body.post.contentHtml).toContain('<h2 id=');
    expect((await json(`/api/posts?id=${post.id}`)).body.post.slug).toBe(post.slug);
    expect((await json('/api/posts?action=categories')).body.categories).toEqual([
      'Design',
      'Life',
      'Podcasts',
      'Technology',
      'Tutorial',
    ]);
    expect((await json('/api/posts?action=tags')).body.tags).toContain('postgresql');
  });

  it('answers bad parameters with a 400 and a message', async () => {
    for (const query of ['page=0', 'page=abc', 'limit=1000', 'status=secret', 'page=1&page=2', 'id=-4']) {
      const { status, body } = await json(`/api/posts?${query}`);
      expect(status, query).toBe(400);
      expect(body.message, query).toMatch(/\w/);
    }
    expect((await json('/api/posts?slug=no-such-post')).status).toBe(404);
  });
});

describe('comments', () => {
  it('takes a comment as pending, shows only approved ones, and never returns an email', async () => {
    const post = await publishedPost(app);
    const created = await json('/api/comments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        postId: post.id,
        author: '  Jo  ',
        email: 'jo@example.com',
        content: ' Nice post ',
      }),
    });
    expect(created.status).toBe(201);
    expect(created.body.comment).toMatchObject({ author: 'Jo', content: 'Nice post', approved: false });
    const listed = await json(`/api/comments?postId=${post.id}`);
    expect(listed.body.comments.map((c: { id: number }) => c.id)).not.toContain(created.body.comment.id);
    expect(JSON.stringify(listed.body)).not.toContain('@example.com');

    await app.services.db('comments').where({ id: created.body.comment.id }).update({ approved: true });
    const after = await json(`/api/comments?postId=${post.id}`);
    expect(after.body.comments.map((c: { id: number }) => c.id)).toContain(created.body.comment.id);
    expect(after.body.total).toBe(listed.body.total + 1);
  });

  it('refuses incomplete, invalid and over-long comments with the specification messages', async () => {
    const post = await publishedPost(app);
    const send = (body: object) =>
      json('/api/comments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ postId: post.id, ...body }),
      });
    expect((await send({ author: ' ', email: 'a@b.co', content: 'x' })).body.message).toBe(
      'Please fill in all fields.',
    );
    expect((await send({ author: 'A', email: 'nope', content: 'x' })).body.message).toBe(
      'Please enter a valid email address.',
    );
    const long = await send({ author: 'A', email: 'a@b.co', content: 'x'.repeat(5001) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('Comment must be at most 5000 characters.');
  });

  it('counts one like per session', async () => {
    const post = await publishedPost(app);
    const comment = await app.services.db('comments').where({ post_id: post.id, approved: true }).first();
    const { headers } = await signedInSession(app);
    const first = await json(`/api/comments?id=${comment.id}&action=like`, { method: 'PUT', headers });
    const second = await json(`/api/comments?id=${comment.id}&action=like`, { method: 'PUT', headers });
    expect(first.body.likes).toBe(comment.likes + 1);
    expect(second.body.likes).toBe(comment.likes + 1);
  });
});

describe('newsletter', () => {
  it('stores a pending subscriber once, queues one confirmation mail, and confirms by link', async () => {
    const send = () =>
      json('/api/newsletter', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'Reader@Example.com' }),
      });
    expect((await send()).body).toEqual({
      message: 'We sent you a link to confirm your subscription to the newsletter.',
    });
    expect((await send()).status).toBe(200);
    const rows = await app.services
      .db('newsletter_subscribers')
      .whereRaw('lower(email) = ?', ['reader@example.com']);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe('pending');
    const waiting = await app.services.queues
      .queue('mail')
      .getJobs(['waiting', 'delayed', 'active', 'completed']);
    expect(waiting.filter((j) => j.data.to === 'Reader@Example.com')).toHaveLength(1);
    const page = await fetch(`${app.url}/newsletter/confirm?token=${rows[0].token}`);
    expect(await page.text()).toContain('Subscription confirmed');
    expect((await app.services.db('newsletter_subscribers').where({ id: rows[0].id }).first()).status).toBe(
      'confirmed',
    );
  });

  it('refuses an address that is not one', async () => {
    const { status, body } = await json('/api/newsletter', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'not-an-address' }),
    });
    expect(status).toBe(400);
    expect(body.message).toBe('Please enter a valid email address.');
  });
});

describe('feeds and crawlers', () => {
  it('serves well-formed RSS, podcast and sitemap XML and a robots.txt that points at the sitemap', async () => {
    for (const path of ['/rss.xml', '/podcast.xml', '/sitemap.xml']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status, path).toBe(200);
      const text = await res.text();
      expect(XMLValidator.validate(text), path).toBe(true);
    }
    const rss = await (await fetch(`${app.url}/rss.xml`)).text();
    expect(rss.match(/<item>/g)).toHaveLength(16);
    for (const episode of ['episode-1', 'episode-2']) {
      const bytes = statSync(`public/demo/${episode}.wav`).size;
      expect(rss).toContain(
        `<enclosure url="${app.url}/demo/${episode}.wav" length="${bytes}" type="audio/wav"/>`,
      );
    }
    const podcast = await (await fetch(`${app.url}/podcast.xml`)).text();
    expect(podcast).toMatch(/<enclosure url="[^"]+episode-1\.wav" length="16044" type="audio\/wav"\/>/);
    expect(podcast).toContain('<itunes:author>');
    // Apple's cover rule: a square PNG (or JPEG) of 1400-3000 px, which an SVG is not.
    const cover = /<itunes:image href="([^"]+)"\/>/.exec(podcast)?.[1] ?? '';
    expect(cover).toBe(`${app.url}/podcast-cover.png`);
    const png = await fetch(cover);
    expect(png.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1400, 1400]);
    const sitemap = await (await fetch(`${app.url}/sitemap.xml`)).text();
    expect(sitemap).toContain('/product/');
    expect(await (await fetch(`${app.url}/robots.txt`)).text()).toContain(`Sitemap: ${app.url}/sitemap.xml`);
  });

  it('measures remote podcast audio for the enclosures with a HEAD request', async () => {
    const heads: string[] = [];
    const audioHost = createServer((req, res) => {
      heads.push(`${req.method} ${req.url}`);
      if (req.url === '/show/episode.mp3') {
        res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': '4815162' });
      } else res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => audioHost.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(audioHost.address() as AddressInfo).port}`;
    const [first, second] = await app.services
      .db('posts')
      .whereNotNull('podcast_url')
      .where({ status: 'published' })
      .orderBy('id')
      .select('id', 'podcast_url');
    try {
      await app.services
        .db('posts')
        .where({ id: first.id })
        .update({ podcast_url: `${origin}/show/episode.mp3` });
      await app.services
        .db('posts')
        .where({ id: second.id })
        .update({ podcast_url: `${origin}/gone.m4a` });
      for (const feed of ['/rss.xml', '/podcast.xml']) {
        const text = await (await fetch(`${app.url}${feed}`)).text();
        expect(text, feed).toContain(
          `<enclosure url="${origin}/show/episode.mp3" length="4815162" type="audio/mpeg"/>`,
        );
        // Unknown size: 0, as RSS allows, with the type the file name gives.
        expect(text, feed).toContain(`<enclosure url="${origin}/gone.m4a" length="0" type="audio/mp4"/>`);
      }
      expect(heads).toContain('HEAD /show/episode.mp3');
      expect(heads.every((line) => line.startsWith('HEAD '))).toBe(true);
    } finally {
      for (const post of [first, second])
        await app.services.db('posts').where({ id: post.id }).update({ podcast_url: post.podcast_url });
      audioHost.close();
    }
  });

  it('gives the post page canonical, Open Graph and JSON-LD metadata that parses', async () => {
    const post = await publishedPost(app);
    const html = await (
      await fetch(`${app.url}/post/${post.slug}`, { headers: { 'user-agent': 'Googlebot/2.1' } })
    ).text();
    expect(html).toContain(`<link rel="canonical" href="${app.url}/post/${post.slug}"/>`);
    expect(html).toContain('<meta property="og:type" content="article"/>');
    const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const data = JSON.parse(ld);
    expect(data['@type']).toBe('BlogPosting');
    expect(data.wordCount).toBeGreaterThan(100);
  });

  it('redirects ids and old slugs to the canonical slug with 301, and 404s unknown posts', async () => {
    const post = await publishedPost(app);
    const byId = await fetch(`${app.url}/post/${post.id}`, { redirect: 'manual' });
    expect(byId.status).toBe(301);
    expect(byId.headers.get('location')).toBe(`/post/${post.slug}`);
    await app.services.db('post_slug_history').insert({ slug: 'an-old-title', post_id: post.id });
    const old = await fetch(`${app.url}/post/an-old-title`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(`/post/${post.slug}`);
    const missing = await fetch(`${app.url}/post/nothing-here`);
    expect(missing.status).toBe(404);
    const html = await missing.text();
    expect(html).toContain('<h1>Post Not Found</h1>');
    expect(html).toContain('The post you&#x27;re looking for doesn&#x27;t exist or has been removed.');
  });
});
