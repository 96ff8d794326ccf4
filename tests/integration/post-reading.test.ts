import { afterAll, beforeAll, expect, it } from 'vitest';
import { LONG_READ_MINUTES } from '../../src/blog/reading.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  app = await startTestApp();
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
