import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BODY_IMAGE_SIZES } from '../../src/blog/markdown.ts';
import { LONG_READ_MINUTES } from '../../src/blog/reading.ts';
import { rerenderPosts } from '../../src/blog/rerender.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  app = await startTestApp({ withWorker: true });
  admin = await signedInSession(app, { role: 'admin' });
});
afterAll(() => app?.close());

/** A post saved through the admin API, as the editor saves it; its slug. */
async function savePost(title: string, content: string): Promise<string> {
  const res = await fetch(`${app.url}/api/posts`, {
    method: 'POST',
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      title,
      content,
      excerpt: 'An excerpt',
      category: 'Technology',
      status: 'published',
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).post.slug;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

const BODY = [
  'Some code:',
  '```js\nconst answer = 42; // the answer\n```',
  '![A dandelion at dusk](/demo/dandelion.webp "Seeds at dusk")',
].join('\n\n');

it('serves code highlighted when it was saved, and a standalone image as a captioned figure', async () => {
  const slug = await savePost('Highlighted and captioned', BODY);
  const html = await (await fetch(`${app.url}/post/${slug}`)).text();
  expect(html).toContain(
    '<code class="language-js"><span class="hljs-keyword">const</span> answer = <span class="hljs-number">42</span>;',
  );
  expect(html).toContain(
    '<figure><a href="/demo/dandelion.webp"><img src="/demo/dandelion.webp" alt="A dandelion at dusk" loading="lazy" decoding="async"></a><figcaption>Seeds at dusk</figcaption></figure>',
  );
});

it('ships a post page without script files and under the 5 KB first-load JavaScript budget', async () => {
  const slug = await savePost('Without scripts', `${BODY}\n\n${words(LONG_READ_MINUTES * 200)}`);
  const html = await (await fetch(`${app.url}/post/${slug}`)).text();
  expect(html).not.toMatch(/<script\b[^>]*\bsrc=|<script\b[^>]*type="module"|rel="modulepreload"/);
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !attributes.includes('application/ld+json'))
    .map(([, , source]) => source);
  // The theme's two small scripts: the reading-progress bar adds none.
  expect(inline).toHaveLength(2);
  expect(Buffer.byteLength(inline.join(''))).toBeLessThan(5 * 1024);
});

it('shows the reading-progress bar on long posts only, driven by CSS that does nothing without support or with reduced motion', async () => {
  const long = await savePost('A long read', words(LONG_READ_MINUTES * 200));
  const short = await savePost('A short read', words(LONG_READ_MINUTES * 200 - 250));
  const longHtml = await (await fetch(`${app.url}/post/${long}`)).text();
  const shortHtml = await (await fetch(`${app.url}/post/${short}`)).text();
  expect(longHtml).toContain('<div class="reading-progress" aria-hidden="true"></div>');
  expect(shortHtml).not.toContain('reading-progress');

  const sheets = [...longHtml.matchAll(/<link [^>]*rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
  const css = (await Promise.all(sheets.map(async (s) => (await fetch(`${app.url}${s}`)).text()))).join('\n');
  // Hidden unless the browser has scroll timelines and the reader has not asked for less motion.
  expect(css).toMatch(/\.reading-progress\{display:none\}/);
  const guarded =
    /@supports \(animation-timeline:view\(\)\)[^{]*\{@media \(prefers-reduced-motion:no-preference\)\{(.*?)\}\}\}/s.exec(
      css,
    )?.[1];
  expect(guarded).toMatch(/\.reading-progress\{[^}]*display:block/);
  // The timeline after the animation shorthand, which would reset it.
  expect(guarded).toMatch(
    /\.reading-progress\{[^}]*animation:[^;]*reading-progress;animation-timeline:--reading/,
  );
});

it('seeds the demo with real photographs, each licensed in the file beside them, and a post with code and a figure', async () => {
  const dir = path.join(process.cwd(), 'public/demo/photos');
  const photos = readdirSync(dir).filter((name) => name.endsWith('.webp'));
  const licences = readFileSync(path.join(dir, 'LICENSES.md'), 'utf8');
  expect(photos.length).toBeGreaterThanOrEqual(3);
  for (const photo of photos)
    expect(licences).toMatch(new RegExp(`\\| \`${photo}\` \\|.*\\| (CC0|Public domain)`));
  const bytes = photos.reduce((sum, photo) => sum + statSync(path.join(dir, photo)).size, 0);
  expect(bytes).toBeLessThan(400 * 1024);

  await seedDemo(app);
  const images = await app.services
    .db('posts')
    .whereLike('featured_image', '/demo/photos/%')
    .pluck('featured_image');
  expect(new Set(images)).toEqual(new Set(photos.map((photo) => `/demo/photos/${photo}`)));
  const served = await fetch(`${app.url}${images[0]}`);
  expect(served.headers.get('content-type')).toBe('image/webp');

  const post = await publishedPost(app, 'build-a-markdown-blog-engine-from-scratch');
  const html = await (await fetch(`${app.url}/post/${post.slug}`)).text();
  expect(html).toContain('<code class="language-ts"><span class="hljs-keyword">import</span>');
  expect(html).toMatch(
    /<figure><a href="\/demo\/photos\/dandelion\.webp"><img [^>]*width="1200" height="630"/,
  );
  expect(html).toContain('<div class="reading-progress" aria-hidden="true"></div>');
});

it('renders posts saved before the highlighter again, keeping their version and dates', async () => {
  const slug = await savePost('Saved long ago', '```sql\nSELECT 1;\n```');
  const before = '<pre><code class="language-sql">SELECT 1;\n</code></pre>';
  await app.services.db('posts').where({ slug }).update({ content_html: before });
  const row = await app.services.db('posts').where({ slug }).first('version', 'updated_at');

  expect(await rerenderPosts(app.services.db, app.services.uploads, 2)).toBe(1);
  const after = await app.services.db('posts').where({ slug }).first('content_html', 'version', 'updated_at');
  expect(after.content_html).toContain('<span class="hljs-keyword">SELECT</span>');
  expect(after).toMatchObject({ version: row.version, updated_at: row.updated_at });
  expect(await rerenderPosts(app.services.db, app.services.uploads)).toBe(0);
});

it("serves an uploaded image in a post's body at its size, with WebP variants in a srcset; rerender adds them to old posts", async () => {
  const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#0f766e' } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(photo)]), 'lake.jpg');
  const uploaded = await fetch(`${app.url}/api/uploads`, {
    method: 'POST',
    body: form,
    headers: admin.headers,
  });
  expect(uploaded.status).toBe(201);
  const { url } = await uploaded.json();
  const base = url.replace(/\.jpg$/, '');
  const slug = await savePost('A lake in the body', `Before.\n\n![A green lake](${url})\n\nAfter.`);

  const image = async () =>
    /<img src="\/uploads\/[^"]+"[^>]*>/.exec(await (await fetch(`${app.url}/post/${slug}`)).text())?.[0];
  const expected = `<img src="${url}" alt="A green lake" loading="lazy" decoding="async" width="1600" height="900" srcset="${base}-w640.webp 640w, ${base}-w1280.webp 1280w, ${url} 1600w" sizes="${BODY_IMAGE_SIZES}">`;
  expect(await image()).toBe(expected);
  // The worker writes the variants, in the image's own proportions.
  await expect
    .poll(async () => (await fetch(`${app.url}${base}-w640.webp`)).status, { timeout: 15_000 })
    .toBe(200);
  const variant = await sharp(
    Buffer.from(await (await fetch(`${app.url}${base}-w640.webp`)).arrayBuffer()),
  ).metadata();
  expect(variant).toMatchObject({ format: 'webp', width: 640, height: 360 });

  // A post saved before sizes were recorded: rerender measures the stored upload and adds them.
  const fileName = url.replace('/uploads/', '');
  await app.services.db('upload_sizes').where({ file_name: fileName }).delete();
  await app.services
    .db('posts')
    .where({ slug })
    .update({ content_html: `<p><img src="${url}" alt="A green lake"></p>` });
  await rerenderPosts(app.services.db, app.services.uploads);
  expect(
    await app.services.db('upload_sizes').where({ file_name: fileName }).first('width', 'height'),
  ).toEqual({
    width: 1600,
    height: 900,
  });
  app.services.pageCache.invalidate();
  expect(await image()).toBe(expected);
});

it('re-renders a paid post without its paywall line, and its public preview with it', async () => {
  const res = await fetch(`${app.url}/api/posts`, {
    method: 'POST',
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'A gated rerender',
      excerpt: 'Gated',
      category: 'Business',
      status: 'published',
      visibility: 'paid',
      content: 'The open part.\n\n[paywall]\n\nThe closed part.',
    }),
  });
  const { post } = await res.json();
  await app.services
    .db('posts')
    .where({ id: post.id })
    .update({ content_html: '<p>old</p>', preview_html: '<p>old</p>' });
  expect(await rerenderPosts(app.services.db, app.services.uploads)).toBe(1);
  const after = await app.services.db('posts').where({ id: post.id }).first('content_html', 'preview_html');
  expect(after.content_html).toBe('<p>The open part.</p>\n<p>The closed part.</p>');
  expect(after.preview_html).toBe('<p>The open part.</p>');
});
