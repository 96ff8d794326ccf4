import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';
import { until } from '../support/until.ts';

// Two web processes on one database, each with its page cache (and so its NOTIFY listener) on.
let app: TestApp;
let other: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { PAGE_CACHE_TTL_SECONDS: '60' } });
  other = await startTestApp({ database: app.database, env: { PAGE_CACHE_TTL_SECONDS: '60' } });
});
afterAll(async () => {
  await other?.close();
  await app?.close();
});

const SETTINGS = { description: 'Desc', authorName: 'Ada', authorBio: 'Bio', shopRequiresSignIn: false };

async function titleOf(target: TestApp, cookie: string): Promise<string> {
  const html = await (await fetch(`${target.url}/about`, { headers: { cookie } })).text();
  return /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
}

describe('pages rendered for a session', () => {
  it('keep the blog settings in memory until an admin writes them, in this process or another', async () => {
    const reader = await signedInSession(app);
    const admin = await signedInSession(app, { role: 'admin' });
    const save = async (target: TestApp, title: string) => {
      const res = await fetch(`${target.url}/api/settings`, {
        method: 'PUT',
        headers: { cookie: admin.cookie, origin: target.url, 'content-type': 'application/json' },
        body: JSON.stringify({ ...SETTINGS, title }),
      });
      expect(res.status).toBe(200);
    };
    await save(app, 'First Title');
    expect(await titleOf(app, reader.cookie)).toContain('First Title');
    await until(
      async () => (await titleOf(other, reader.cookie)).includes('First Title'),
      'the other process',
    );

    // A change that is no admin's write (made straight in the database) is not read again per request.
    await app.services.db('blog_settings').where({ id: 1 }).update({ title: 'Unannounced' });
    expect(await titleOf(app, reader.cookie)).toContain('First Title');

    // An admin's save in this process is seen by the next request here…
    await save(app, 'Second Title');
    expect(await titleOf(app, reader.cookie)).toContain('Second Title');
    // …and, through the page cache's notification, by the other process.
    await until(
      async () => (await titleOf(other, reader.cookie)).includes('Second Title'),
      'the other process',
    );

    await save(other, 'Third Title');
    await until(async () => (await titleOf(app, reader.cookie)).includes('Third Title'), 'this process');
  });

  it("count the header's cart with the session, and again after a change in the same request", async () => {
    const product = await createProductRow(app.services.db, { name: 'Badge Mug', price: 900, stock: null });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id, 2)).status).toBeLessThan(300);
    const cookie = `sid=${guest.sid}`;
    const countIn = (html: string) => /aria-label="Cart, (\d+) items?"/.exec(html)?.[1];
    const badge = async () => countIn(await (await fetch(`${app.url}/shop`, { headers: { cookie } })).text());
    expect(await badge()).toBe('2');
    // An add to cart through a page's form: the page it answers with counts the new line.
    const res = await fetch(`${app.url}/product/${product.id}`, {
      method: 'POST',
      headers: {
        cookie,
        origin: app.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'quantity=1',
    });
    expect(res.status).toBe(200);
    expect(countIn(await res.text())).toBe('3');
    expect(await badge()).toBe('3');
    // A product taken off sale leaves the count.
    await app.services.db('products').where({ id: product.id }).update({ status: 'inactive' });
    expect(await badge()).toBe('0');
  });
});
