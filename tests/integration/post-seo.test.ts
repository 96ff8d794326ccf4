import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_MESSAGES } from '../../src/blog/post-messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  app = await startTestApp();
  admin = await signedInSession(app, { role: 'admin', firstName: 'Ada', lastName: 'Lovelace' });
});
afterAll(async () => {
  await app?.close();
});

async function save(body: Record<string, unknown>) {
  const res = await fetch(`${app.url}/api/posts`, {
    method: 'POST',
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      content: 'Words worth sharing.',
      excerpt: 'The post’s own excerpt',
      category: 'Technology',
      status: 'published',
      featuredImage: 'https://images.example/featured.jpg',
      ...body,
    }),
  });
  return { status: res.status, body: await res.json() };
}

async function head(slug: string) {
  const html = await (await fetch(`${app.url}/post/${slug}`)).text();
  const meta = (attr: 'name' | 'property', key: string) =>
    new RegExp(`<meta ${attr}="${key}" content="([^"]*)"/>`).exec(html)?.[1];
  return {
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
    description: meta('name', 'description'),
    canonical: /<link rel="canonical" href="([^"]*)"\/>/.exec(html)?.[1],
    og: {
      title: meta('property', 'og:title'),
      description: meta('property', 'og:description'),
      url: meta('property', 'og:url'),
      image: meta('property', 'og:image'),
    },
    twitter: {
      card: meta('name', 'twitter:card'),
      title: meta('name', 'twitter:title'),
      description: meta('name', 'twitter:description'),
      image: meta('name', 'twitter:image'),
    },
    ld: JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}'),
  };
}

describe('per-post search and social metadata', () => {
  it('falls back to the title, excerpt, own address and featured image when the fields are empty', async () => {
    const { body } = await save({ title: 'Plain Defaults', metaTitle: '  ', metaDescription: '' });
    expect(body.post).toMatchObject({
      metaTitle: null,
      metaDescription: null,
      canonicalUrl: null,
      socialImage: null,
    });
    const h = await head(body.post.slug);
    const own = `${app.url}/post/${body.post.slug}`;
    expect(h.title).toMatch(/^Plain Defaults — /);
    expect(h.description).toBe('The post’s own excerpt');
    expect(h.canonical).toBe(own);
    expect(h.og).toEqual({
      title: 'Plain Defaults',
      description: 'The post’s own excerpt',
      url: own,
      image: 'https://images.example/featured.jpg',
    });
    expect(h.twitter).toEqual({
      card: 'summary_large_image',
      title: 'Plain Defaults',
      description: 'The post’s own excerpt',
      image: 'https://images.example/featured.jpg',
    });
    expect(h.ld).toMatchObject({
      headline: 'Plain Defaults',
      description: 'The post’s own excerpt',
      mainEntityOfPage: own,
      image: 'https://images.example/featured.jpg',
    });
  });

  it('uses every field that is set in the head, Open Graph, Twitter card and JSON-LD', async () => {
    const { status, body } = await save({
      title: 'Tuned For Sharing',
      metaTitle: 'A sharper title for search',
      metaDescription: 'What the search result says & why',
      canonicalUrl: 'https://first.example/original-post',
      socialImage: '/uploads/0123456789abcdef0123456789abcdef.png',
    });
    expect(status).toBe(201);
    const h = await head(body.post.slug);
    const image = `${app.url}/uploads/0123456789abcdef0123456789abcdef.png`;
    expect(h.title).toBe('A sharper title for search');
    expect(h.description).toBe('What the search result says &amp; why');
    expect(h.canonical).toBe('https://first.example/original-post');
    expect(h.og).toEqual({
      title: 'A sharper title for search',
      description: 'What the search result says &amp; why',
      url: 'https://first.example/original-post',
      image,
    });
    expect(h.twitter).toEqual({
      card: 'summary_large_image',
      title: 'A sharper title for search',
      description: 'What the search result says &amp; why',
      image,
    });
    expect(h.ld).toMatchObject({
      headline: 'A sharper title for search',
      description: 'What the search result says & why',
      mainEntityOfPage: 'https://first.example/original-post',
      image,
    });
    // The API's one-post answer carries them too.
    const one = await (await fetch(`${app.url}/api/posts?id=${body.post.id}`)).json();
    expect(one.post).toMatchObject({
      metaTitle: 'A sharper title for search',
      canonicalUrl: 'https://first.example/original-post',
    });
  });

  it('refuses a canonical URL that is no web address and overlong fields, with messages', async () => {
    expect(await save({ title: 'Bad canonical', canonicalUrl: 'javascript:alert(1)' })).toEqual({
      status: 400,
      body: { message: POST_MESSAGES.invalidCanonical },
    });
    expect(await save({ title: 'Long title', metaTitle: 'x'.repeat(201) })).toEqual({
      status: 400,
      body: { message: POST_MESSAGES.metaTitleTooLong },
    });
    expect(await save({ title: 'Long description', metaDescription: 'x'.repeat(501) })).toEqual({
      status: 400,
      body: { message: POST_MESSAGES.metaDescriptionTooLong },
    });
    expect(await save({ title: 'Bad image', socialImage: '/etc/passwd' })).toEqual({
      status: 400,
      body: { message: POST_MESSAGES.invalidImage },
    });
  });
});
