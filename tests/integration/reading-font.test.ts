import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
});
afterAll(() => app?.close());

/** The fonts a page preloads, by file. */
async function preloadedFonts(html: string): Promise<string[]> {
  const preloads = [...html.matchAll(/<link [^>]*rel="preload"[^>]*>/g)].map((m) => m[0]);
  const fonts = preloads.filter((link) => link.includes('as="font"'));
  for (const link of fonts) {
    expect(link).toContain('type="font/woff2"');
    expect(link).toContain('crossorigin="anonymous"');
  }
  return fonts.map((link) => /href="([^"]+)"/.exec(link)?.[1] ?? '');
}

it('preloads the self-hosted Latin UI font on every page, and the reading font on a post page, each at most 60 KB', async () => {
  const home = await (await fetch(`${app.url}/`)).text();
  const [ui, ...others] = await preloadedFonts(home);
  expect(ui).toMatch(/^\/assets\/source-sans-3-latin-wght-normal-[\w-]+\.woff2$/);
  expect(others).toEqual([]);

  const post = await publishedPost(app);
  const html = await (await fetch(`${app.url}/post/${post.slug}`)).text();
  const fonts = await preloadedFonts(html);
  expect(fonts).toHaveLength(2);
  expect(fonts).toContain(ui);
  const reading = fonts.find((href) => href !== ui) ?? '';
  expect(reading).toMatch(/^\/assets\/source-serif-4-latin-wght-normal-[\w-]+\.woff2$/);
  for (const href of fonts) {
    const font = await fetch(`${app.url}${href}`);
    expect(font.status).toBe(200);
    expect((await font.arrayBuffer()).byteLength).toBeLessThanOrEqual(60 * 1024);
  }

  // The stylesheets name those very files, swapped in when they arrive, and no other font file.
  const sheets = [...html.matchAll(/<link [^>]*rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
  const css = (await Promise.all(sheets.map(async (s) => (await fetch(`${app.url}${s}`)).text()))).join('\n');
  const faces = css.match(/@font-face\{[^}]*\}/g) ?? [];
  expect(faces).toHaveLength(2);
  for (const face of faces) expect(face).toContain('font-display:swap');
  expect(faces.map((face) => /url\(([^)]+)\)/.exec(face)?.[1]).sort()).toEqual([...fonts].sort());
  expect(css).toMatch(/\.prose\{[^}]*max-width:64ch/);
  // One scale and three weights for the interface.
  expect(css).toMatch(/--font:"Source Sans 3"/);
  expect(css).toMatch(/h1\{font-size:var\(--step-4\)\}/);
});
