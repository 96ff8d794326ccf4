import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { seedDemo } from '../support/blog.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
});
afterAll(() => app?.close());

/** A page's HTML without React's text separators. */
const page = async (path: string) =>
  (await (await fetch(`${app.url}${path}`)).text()).replaceAll('<!-- -->', '');

const published = () =>
  app.services
    .db('posts')
    .where({ status: 'published' })
    .orderBy([
      { column: 'published_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .select('slug', 'title');

it('ends a post with the author card: avatar, name linking to the author page, bio and links from the settings', async () => {
  await app.services
    .db('blog_settings')
    .where({ id: 1 })
    .update({ author_bio: 'Builds calm software.', author_profile_image: '/demo/author.svg' });
  const [, post] = await published();
  const html = await page(`/post/${post.slug}`);
  const card = /<section class="author-card card"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? '';
  expect(card).toContain('<img src="/demo/author.svg" alt="" class="author-card-avatar"');
  expect(card).toMatch(
    /<h2 id="author-card-name" class="author-card-name"><a href="\/author\/admin">[^<]+<\/a><\/h2>/,
  );
  expect(card).toContain('Builds calm software.');
  expect(card).toContain('href="https://github.com/penstand" rel="me noopener noreferrer"');
});

it('offers share links without tracking: copy (for scripts), email, and the networks of the settings', async () => {
  const [post] = await published();
  const link = `${app.services.publicUrl}/post/${post.slug}`;
  const html = await page(`/post/${post.slug}`);
  const share = /<section class="share"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? '';
  expect(share).toMatch(
    new RegExp(
      `<button type="button" class="[^"]*share-copy" data-url="${link.replace(/[.?/]/g, '\\$&')}"[^>]* hidden="">Copy link</button>`,
    ),
  );
  expect(share).toContain(
    `href="mailto:?subject=${encodeURIComponent(post.title)}&amp;body=${encodeURIComponent(link)}"`,
  );
  expect(share).toContain(`href="https://twitter.com/intent/tweet?url=${encodeURIComponent(link)}&amp;text=`);
  expect(share).toContain(
    `href="https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(link)}"`,
  );
  expect(share).not.toMatch(/youtube|github|utm_/i);

  // Only the networks the writer set up.
  await app.services
    .db('blog_settings')
    .where({ id: 1 })
    .update({ social_links: JSON.stringify({ github: 'https://github.com/penstand' }) });
  const bare = await page(`/post/${post.slug}`);
  expect(bare).not.toContain('twitter.com/intent');
  expect(bare).not.toContain('linkedin.com/sharing');
  expect(bare).toContain('>Email</a>');
});

it('links each post to the older and the newer published post, skipping drafts', async () => {
  const posts = await published();
  const [first, second, third] = posts;
  const middle = await page(`/post/${second.slug}`);
  const nav = /<nav class="post-nav"[^>]*>(.*?)<\/nav>/s.exec(middle)?.[1] ?? '';
  expect(nav).toContain(`href="/post/${first.slug}" rel="prev"`);
  expect(nav).toContain(`← Previous post</span><span class="post-nav-title">${first.title}</span>`);
  expect(nav).toContain(`href="/post/${third.slug}" rel="next"`);

  const oldest = await page(`/post/${first.slug}`);
  expect(oldest).not.toContain('rel="prev"');
  expect(oldest).toContain(`href="/post/${second.slug}" rel="next"`);
  const newest = await page(`/post/${posts[posts.length - 1].slug}`);
  expect(newest).not.toMatch(/class="post-nav-link post-nav-next/);

  await app.services.db('posts').where({ slug: second.slug }).update({ status: 'draft' });
  expect(await page(`/post/${first.slug}`)).toContain(`href="/post/${third.slug}" rel="next"`);
  await app.services.db('posts').where({ slug: second.slug }).update({ status: 'published' });
});
