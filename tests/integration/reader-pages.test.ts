import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { seedDemo } from '../support/blog.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
});
afterAll(() => app?.close());

const page = async (path: string) => (await fetch(`${app.url}${path}`)).text();

it('counts all posts under View All Posts, and no count under a search', async () => {
  const total = Number((await app.services.db('posts').where({ status: 'published' }).count('* as n'))[0].n);
  expect(await page('/')).toContain(`View All Posts (<!-- -->${total}<!-- -->)`.replace(/<!-- -->/g, ''));
  const searched = await page('/?q=zzzznothing');
  expect(searched).toContain('View All Posts</a>');
  expect(searched).not.toContain('View All Posts (');
});

it('names a video once in its player title', async () => {
  const html = await page('/post/video-refactoring-a-legacy-checkout-live');
  expect(html).toContain('title="Video: Refactoring a Legacy Checkout Live"');
  expect(html).not.toContain('Video: Video:');
});

it('draws placeholders as icons, not emoji, and writes to the contact address of the settings', async () => {
  await app.services.db('posts').where({ slug: 'video-refactoring-a-legacy-checkout-live' }).update({
    featured_image: null,
    featured_image_file: null,
  });
  const blog = await page('/blog');
  expect(blog).not.toMatch(/🎧|▶/u);
  expect(blog).toMatch(/<span class="media-placeholder"><svg[^>]*>.*?<\/svg><span>Video<\/span><\/span>/);
  const about = await page('/about');
  expect(about).toContain('href="mailto:alex@example.com"');
  expect(about).not.toContain('hello@');
  expect(await page('/')).toContain(`© ${new Date().getFullYear()} `);
});

it("draws a video post's carousel slide on / with the video icon, like the other placeholders", async () => {
  await app.services.db('posts').where({ slug: 'video-refactoring-a-legacy-checkout-live' }).update({
    featured_image: null,
    featured_image_file: null,
  });
  // The lead above the carousel is the newest featured post: another one, so the video is in the carousel.
  await app.services.db('posts').update({ featured: false });
  await app.services
    .db('posts')
    .whereIn('slug', ['building-a-calm-home-office', 'video-refactoring-a-legacy-checkout-live'])
    .update({ featured: true });
  // Written straight to the table: the admin's own writes would empty the page cache.
  app.services.pageCache.invalidate();
  const home = await page('/');
  expect(home).toContain('id="lead-post-title"');
  const slides = /<section class="carousel".*?<\/section>/s.exec(home)?.[0] ?? '';
  expect(slides).toMatch(
    /<div class="carousel-media" aria-hidden="true"><span class="media-placeholder"><svg[^>]*><path d="M8 5.5v13l11-6.5z"[^>]*><\/path><\/svg><span>Video<\/span><\/span><\/div>/,
  );
  expect(slides).toContain('Refactoring a Legacy Checkout Live');
});
