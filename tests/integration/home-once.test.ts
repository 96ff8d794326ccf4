import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPost } from '../../src/blog/post-editor.ts';
import { postInputSchema } from '../../src/blog/post-schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { seedDemo } from '../support/blog.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
  // Enough posts for the latest list to run to a second page.
  for (let n = 1; n <= 14; n++)
    await createPost(
      app.services.db,
      app.services.queues,
      postInputSchema.parse({
        title: `Paging Post ${n}`,
        content: 'Words.',
        excerpt: 'An excerpt',
        category: 'Life',
        status: 'published',
      }),
      null,
    );
});
afterAll(() => app?.close());

const page = async (path: string) => {
  const response = await fetch(`${app.url}${path}`);
  expect(response.status).toBe(200);
  // React's markers between adjacent text parts ('Page <!-- -->1<!-- --> of …').
  return (await response.text()).replaceAll('<!-- -->', '');
};

/** The titles a part of the home page shows, by the class of their heading. */
const titles = (html: string, className: string) =>
  [...html.matchAll(new RegExp(`class="${className}"[^>]*><a [^>]*>([^<]*)</a>`, 'g'))].map((m) => m[1]);

it('shows each post once: the lead, then featured posts only in the carousel, then the rest', async () => {
  const html = await page('/');
  const lead = titles(html, 'lead-post-title');
  const carousel = titles(html, 'carousel-title');
  const latest = titles(html, 'post-card-title');
  expect(lead).toHaveLength(1);
  expect(carousel.length).toBeGreaterThan(0);
  const shown = [...lead, ...carousel, ...latest];
  expect(new Set(shown).size).toBe(shown.length);
  // The carousel turns through featured posts and nothing else.
  const featured = await app.services
    .db('posts')
    .where({ status: 'published', featured: true })
    .pluck('title');
  for (const title of carousel) expect(featured).toContain(title);
  // No thumbnail strip repeating the slides.
  expect(html).not.toContain('carousel-thumbs');
});

it('pages through the latest posts without a gap or a repeat, counting every post in View All Posts', async () => {
  const first = await page('/');
  const inView = [...titles(first, 'lead-post-title'), ...titles(first, 'carousel-title')];
  const published: string[] = await app.services.db('posts').where({ status: 'published' }).pluck('title');
  const pages = Number(/Page 1 of (\d+)/.exec(first)?.[1]);
  expect(pages).toBeGreaterThan(1);
  const listed: string[] = [];
  for (let n = 1; n <= pages; n++) listed.push(...titles(await page(`/?page=${n}`), 'post-card-title'));
  expect(new Set(listed).size).toBe(listed.length);
  expect([...inView, ...listed].sort()).toEqual([...published].sort());
  expect(first).toContain(`View All Posts (${published.length})`);
});

it('leaves the lead and carousel out of a filtered list too', async () => {
  const first = await page('/');
  const inView = [...titles(first, 'lead-post-title'), ...titles(first, 'carousel-title')];
  const { category } = await app.services.db('posts').where({ title: inView[0] }).first();
  const filtered = await page(`/?category=${category}`);
  const listed = titles(filtered, 'post-card-title');
  for (const title of inView) expect(listed).not.toContain(title);
});
