import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
});
afterAll(() => app?.close());

it('preloads one self-hosted Latin reading font of at most 60 KB, swapped in, on a post page', async () => {
  const post = await publishedPost(app);
  const html = await (await fetch(`${app.url}/post/${post.slug}`)).text();
  const preloads = [...html.matchAll(/<link [^>]*rel="preload"[^>]*>/g)].map((m) => m[0]);
  const fonts = preloads.filter((link) => link.includes('as="font"'));
  expect(fonts).toHaveLength(1);
  const href = /href="([^"]+)"/.exec(fonts[0])?.[1] ?? '';
  expect(href).toMatch(/^\/assets\/source-serif-4-latin-wght-normal-[\w-]+\.woff2$/);
  expect(fonts[0]).toContain('type="font/woff2"');
  expect(fonts[0]).toContain('crossorigin="anonymous"');

  const font = await fetch(`${app.url}${href}`);
  expect(font.status).toBe(200);
  expect((await font.arrayBuffer()).byteLength).toBeLessThanOrEqual(60 * 1024);

  // The stylesheet names that very file, swapped in when it arrives, and no other font file.
  const sheets = [...html.matchAll(/<link [^>]*rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
  const css = (await Promise.all(sheets.map(async (s) => (await fetch(`${app.url}${s}`)).text()))).join('\n');
  const faces = css.match(/@font-face\{[^}]*\}/g) ?? [];
  expect(faces).toHaveLength(1);
  expect(faces[0]).toContain('font-display:swap');
  expect(faces[0]).toContain(`url(${href})`);
  expect(css).toMatch(/\.prose\{[^}]*max-width:64ch/);
});
