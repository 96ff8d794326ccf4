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

it('pages every admin list, 25 a page, with links that keep the filters', async () => {
  const { db } = app.services;
  await db('posts').insert(
    Array.from({ length: 60 }, (_, i) => ({
      title: `Paged post ${i}`,
      slug: `paged-post-${i}`,
      content: 'Body',
      content_html: '<p>Body</p>',
      excerpt: 'Paged',
      category: 'Technology',
      status: 'draft',
    })),
  );
  await db('products').insert(
    Array.from({ length: 30 }, (_, i) => ({
      name: `Paged product ${i}`,
      description: 'Paged',
      price: 100,
      category: 'Books',
      status: 'inactive',
    })),
  );
  const tab = async (query: string) => {
    const res = await fetch(`${app.url}/admin?${query}`, { headers: { cookie: admin } });
    expect(res.status).toBe(200);
    const html = (await res.text()).replace(/<!-- -->/g, '');
    return {
      cards: html.match(/<li class="card admin-item/g)?.length ?? 0,
      place: /Page (\d+) of (\d+) \((\d+) in all\)/.exec(html)?.slice(1).map(Number),
      next: /href="([^"]+)"[^>]*>Next</.exec(html)?.[1]?.replace(/&amp;/g, '&'),
    };
  };

  const posts = Number((await db('posts').count('* as n'))[0].n);
  const first = await tab('tab=posts');
  expect(first.cards).toBe(25);
  expect(first.place).toEqual([1, Math.ceil(posts / 25), posts]);
  expect(first.next).toBe('/admin?tab=posts&q=&status=all&page=2');
  // A filtered list pages within its filter, and its links keep it.
  const filtered = await tab('tab=posts&status=draft&q=Paged');
  expect(filtered.place).toEqual([1, Math.ceil(60 / 25), 60]);
  expect(filtered.next).toBe('/admin?tab=posts&q=Paged&status=draft&page=2');
  const last = await tab('tab=posts&status=draft&q=Paged&page=3');
  expect(last.cards).toBe(10);
  expect(last.next).toBeUndefined();

  const products = await tab('tab=products&status=inactive');
  expect(products.cards).toBe(25);
  expect(products.next).toBe('/admin?tab=products&q=&status=inactive&page=2');
  expect((await tab('tab=products&status=inactive&page=2')).cards).toBe(
    Number((await db('products').where({ status: 'inactive' }).count('* as n'))[0].n) - 25,
  );

  await db('discount_codes').insert(
    Array.from({ length: 27 }, (_, i) => ({ code: `PAGED${i}`, type: 'percent', value: 10 })),
  );
  const discounts = await tab('tab=discounts');
  expect(discounts.cards).toBe(25);
  expect(discounts.place).toEqual([1, 2, 27]);
  expect(discounts.next).toBe('/admin?tab=discounts&page=2');
  expect((await tab('tab=discounts&page=2')).cards).toBe(2);

  expect(await location('/admin?tab=posts&page=500', admin)).toEqual({
    status: 302,
    location: `/admin?tab=posts&page=${Math.ceil(posts / 25)}`,
  });
});
