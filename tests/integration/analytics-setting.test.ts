import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoContent } from '../../src/demo/seed.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';
import { until } from '../support/until.ts';

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.7444.59 Safari/537.36';
const SETTINGS = {
  title: 'Penstand',
  description: 'Desc',
  authorName: 'Ada',
  authorBio: 'Bio',
  shopRequiresSignIn: false,
};
/** Every table the analytics collect into (the posts' public counts are elsewhere). */
const ANALYTICS_TABLES = [
  'analytics_hourly',
  'analytics_paths_daily',
  'analytics_daily',
  'analytics_referrers',
  'analytics_devices',
  'analytics_countries',
  'analytics_cart_adds',
  'analytics_seen',
  'order_sources',
];

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  app = await startTestApp({ withWorker: true, env: { TRUST_PROXY: 'true' } });
  admin = await signedInSession(app, { role: 'admin' });
});

afterAll(async () => {
  await app?.close();
});

async function putSettings(body: Record<string, unknown>) {
  const res = await fetch(`${app.url}/api/settings`, {
    method: 'PUT',
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function rowsIn(tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    counts[table] = Number((await app.services.db(table).count({ n: '*' }).first())?.n);
  }
  return counts;
}

describe("the 'Analytics' setting", () => {
  it('is on for a new install; off, it collects nothing but the public view counts and hides the tab and API', async () => {
    const { db } = app.services;
    expect((await (await fetch(`${app.url}/api/settings`)).json()).settings.analytics).toBe(true);

    const turnedOff = await putSettings({ ...SETTINGS, analytics: false });
    expect(turnedOff.status).toBe(200);
    expect(turnedOff.body.settings.analytics).toBe(false);
    // A client that predates the field leaves it as it is.
    expect((await putSettings(SETTINGS)).body.settings.analytics).toBe(false);
    expect((await putSettings({ ...SETTINGS, analytics: 'yes' })).status).toBe(400);

    const [post] = await db('posts')
      .insert({
        title: 'Read',
        slug: 'read',
        content: 'x',
        excerpt: 'x',
        category: 'Life',
        status: 'published',
        published_at: new Date(),
      })
      .returning(['id']);
    const product = await createProductRow(db, { price: 900 });
    const guest = new GuestClient(app);
    expect((await guest.add(product.id)).status).toBe(201);
    const headers = {
      'user-agent': BROWSER,
      'x-forwarded-for': '203.0.113.5',
      referer: 'https://www.google.com/',
    };
    for (const path of ['/', '/post/read', `/product/${product.id}`]) {
      expect((await fetch(`${app.url}${path}`, { headers })).status).toBe(200);
    }
    expect(
      (await fetch(`${app.url}/post/read`, { headers: { ...headers, 'x-session-id': guest.sid ?? '' } }))
        .status,
    ).toBe(200);
    expect((await guest.checkout()).status).toBe(201);
    await app.services.pageViews.flush();
    // The public count goes on: two readers (an address, a session).
    await until(
      async () => (await db('posts').where({ id: post.id }).first('view_count')).view_count === 2,
      'the post counted twice',
      20_000,
    );
    expect(Object.values(await rowsIn(ANALYTICS_TABLES)).every((n) => n === 0)).toBe(true);
    const session = await db('sessions').where({ sid: guest.sid }).first(db.raw(`sess->'lastPost' AS last`));
    expect(session.last).toBeNull();

    const api = await fetch(`${app.url}/api/admin/analytics?from=2026-01-01&to=2026-01-31`, {
      headers: admin.headers,
    });
    expect(api.status).toBe(404);
    expect((await api.json()).message).toBe('Analytics is off. Turn it on in Settings.');
    const adminPage = await (
      await fetch(`${app.url}/admin?tab=analytics`, { headers: admin.headers })
    ).text();
    expect(adminPage).not.toContain('id="admin-tab-analytics"');
    expect(adminPage).toContain('Total Posts'); // the Dashboard instead
    expect(adminPage).not.toContain('Views and visitors, last 30 days');

    // On again: collected from the next view on, and the tab is back.
    expect((await putSettings({ ...SETTINGS, analytics: true })).body.settings.analytics).toBe(true);
    expect((await fetch(`${app.url}/`, { headers })).status).toBe(200);
    await app.services.pageViews.flush();
    await until(
      async () => (await rowsIn(['analytics_daily'])).analytics_daily === 1,
      'the home page view rolled up',
      20_000,
    );
    expect(await db('analytics_referrers').select('source', 'views')).toEqual([
      { source: 'Google', views: 1 },
    ]);
    const tab = await fetch(`${app.url}/admin?tab=analytics`, { headers: admin.headers });
    expect(await tab.text()).toContain('id="admin-tab-analytics"');
  });

  it('is on in the demo seed too (DESIGN decision 14)', async () => {
    await app.services.db('blog_settings').delete();
    expect(await seedDemoContent(app.services.db, { alongsideContent: true })).toBe(true);
    const row = await app.services.db('blog_settings').where({ id: 1 }).first('analytics');
    expect(row).toEqual({ analytics: true });
  });
});
