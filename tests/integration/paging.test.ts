import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';

let app: TestApp;
let admin: string;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
  admin = (await signedInSession(app, { role: 'admin' })).cookie;
});
afterAll(() => app?.close());

async function location(path: string, cookie?: string) {
  const res = await fetch(`${app.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get('location') };
}

it('sends a page past the end of any list to its last page, keeping the other parameters', async () => {
  const posts = Number((await app.services.db('posts').where({ status: 'published' }).count('* as n'))[0].n);
  const blogLast = Math.ceil(posts / 12);
  expect(await location('/blog?page=99')).toEqual({
    status: 302,
    location: blogLast > 1 ? `/blog?page=${blogLast}` : '/blog',
  });
  const products = Number(
    (await app.services.db('products').where({ status: 'active' }).count('* as n'))[0].n,
  );
  const shopLast = Math.ceil(products / 12);
  expect(await location('/shop?page=999999&search=')).toEqual({
    status: 302,
    location: shopLast > 1 ? `/shop?page=${shopLast}&search=` : '/shop?search=',
  });
  const comments = Number((await app.services.db('comments').count('* as n'))[0].n);
  const commentsLast = Math.ceil(comments / 20);
  expect(await location('/admin?tab=comments&view=all&page=500', admin)).toEqual({
    status: 302,
    location:
      commentsLast > 1 ? `/admin?tab=comments&view=all&page=${commentsLast}` : '/admin?tab=comments&view=all',
  });
  // Pages in range are served as they are.
  expect((await location('/shop?page=1')).status).toBe(200);
  expect((await location('/blog')).status).toBe(200);
});
