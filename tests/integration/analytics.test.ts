import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPageViews, sweepAnalytics } from '../../src/analytics/rollups.ts';
import { renderMarkdown } from '../../src/blog/markdown.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';
import { until } from '../support/until.ts';

const ADDRESS = '203.0.113.77';
const OTHER_ADDRESS = '198.51.100.9';
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.7444.59 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let app: TestApp;
let post: { id: number; slug: string };

beforeAll(async () => {
  // The page cache on: stored pages must count like rendered ones.
  app = await startTestApp({ withWorker: true, env: { TRUST_PROXY: 'true', PAGE_CACHE_TTL_SECONDS: '60' } });
  [post] = await app.services
    .db('posts')
    .insert({
      title: 'Counted',
      slug: 'counted',
      content: 'x',
      excerpt: 'x',
      category: 'Life',
      status: 'published',
      published_at: new Date(),
    })
    .returning(['id', 'slug']);
});

afterAll(async () => {
  await app?.close();
});

function visit(path: string, headers: Record<string, string>, method = 'GET') {
  return fetch(`${app.url}${path}`, {
    method,
    redirect: 'manual',
    headers: { 'x-forwarded-for': ADDRESS, 'user-agent': BROWSER, ...headers },
  });
}

async function dailyViews(day: string): Promise<{ views: number; visitors: number }> {
  const row = await app.services.db('analytics_daily').where({ day }).first('views', 'visitors');
  return row ?? { views: 0, visitors: 0 };
}

/** Flushes the web process's batch and waits for the worker to roll it up. */
async function settle(day: string, views: number): Promise<void> {
  await app.services.pageViews.flush();
  await until(async () => (await dailyViews(day)).views >= views, `${views} views on ${day}`, 20_000);
}

const today = () => new Date().toISOString().slice(0, 10);

describe('analytics collection', () => {
  it('counts browsers (stored pages too) but not bots, admins, prefetches or HEAD; groups referrers; keeps no address or agent', async () => {
    const { db } = app.services;
    const product = await createProductRow(db);
    const admin = await signedInSession(app, { role: 'admin' });
    const path = `/post/${post.slug}`;

    const first = await visit(path, { referer: 'https://www.google.com/search?q=x', 'cf-ipcountry': 'DE' });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    await first.text();
    const stored = await visit(path, { referer: 'https://news.ycombinator.com/item?id=1' });
    expect(stored.headers.get('x-cache')).toBe('HIT');
    await visit(path, { referer: `${app.url}/` });
    // Do-Not-Track: a view, not a visitor.
    await visit(path, { 'x-forwarded-for': OTHER_ADDRESS, 'user-agent': PHONE, dnt: '1' });
    await visit(`/product/${product.id}`, { 'user-agent': PHONE, 'x-forwarded-for': OTHER_ADDRESS });
    // Not readers:
    await visit(path, { 'user-agent': BOT });
    await visit(path, { cookie: admin.cookie, 'user-agent': 'Admin browser/1.0' });
    await visit(path, { 'sec-purpose': 'prefetch' });
    await visit(path, { purpose: 'prefetch' });
    await visit(path, {}, 'HEAD');
    await visit('/api/posts', {});

    await settle(today(), 5);
    // Anything late would have arrived with the same flush.
    expect(await dailyViews(today())).toEqual({ views: 5, visitors: 2 });
    const hourly = await db('analytics_hourly').select('path', 'post_id', 'product_id', 'views', 'visitors');
    expect(hourly.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path, post_id: post.id, product_id: null, views: 4, visitors: 1 },
      { path: `/product/${product.id}`, post_id: null, product_id: product.id, views: 1, visitors: 1 },
    ]);
    // The per-day copy agrees with the hours.
    const daily = await db('analytics_paths_daily').select('path', 'views', 'visitors').orderBy('path');
    expect(daily).toEqual([
      { path, views: 4, visitors: 1 },
      { path: `/product/${product.id}`, views: 1, visitors: 1 },
    ]);
    const referrers = await db('analytics_referrers').select('source', 'views');
    expect(referrers).toEqual(
      expect.arrayContaining([
        { source: 'Google', views: 1 },
        { source: 'news.ycombinator.com', views: 1 },
        { source: 'internal', views: 1 },
        { source: 'direct', views: 2 },
      ]),
    );
    expect(referrers).toHaveLength(4);
    const devices = await db('analytics_devices').select('device', 'views').orderBy('device');
    expect(devices).toEqual([
      { device: 'desktop', views: 3 },
      { device: 'mobile', views: 2 },
    ]);
    expect(await db('analytics_countries').select('country', 'views')).toEqual([{ country: 'DE', views: 1 }]);
    // The public count: the tracked reader once a day, the untracked one each time.
    await until(
      async () => (await db('posts').where({ id: post.id }).first('view_count')).view_count === 2,
      'the public view count',
      20_000,
    );

    // No table, in any schema (the queue's too), holds the address or the user agent.
    const tables: { table_schema: string; table_name: string }[] = await db('information_schema.tables')
      .select('table_schema', 'table_name')
      .where({ table_type: 'BASE TABLE' })
      .whereNotIn('table_schema', ['pg_catalog', 'information_schema']);
    expect(tables.length).toBeGreaterThan(20);
    for (const { table_schema, table_name } of tables) {
      for (const needle of [ADDRESS, OTHER_ADDRESS, BROWSER, PHONE]) {
        const { rows } = await db.raw(`SELECT count(*)::int AS n FROM ??.?? t WHERE strpos(t::text, ?) > 0`, [
          table_schema,
          table_name,
          needle,
        ]);
        expect({ table: `${table_schema}.${table_name}`, needle, n: rows[0].n }).toEqual({
          table: `${table_schema}.${table_name}`,
          needle,
          n: 0,
        });
      }
    }
  });

  it('counts two addresses as two visitors, the same one once a day, and again on the next day', async () => {
    const { db, pageViews } = app.services;
    await db('analytics_daily').delete();
    await db('analytics_seen').delete();
    const path = `/post/${post.slug}`;
    await visit(path, {});
    await visit(path, { 'x-forwarded-for': OTHER_ADDRESS });
    await visit(path, {});
    await settle(today(), 3);
    expect(await dailyViews(today())).toEqual({ views: 3, visitors: 2 });

    const tomorrow = new Date(Date.now() + 86_400_000);
    pageViews.clock = () => tomorrow;
    try {
      await visit(path, {});
      await settle(tomorrow.toISOString().slice(0, 10), 1);
      expect(await dailyViews(tomorrow.toISOString().slice(0, 10))).toEqual({ views: 1, visitors: 1 });
      // A day past: its salt and hashes are swept, today's stay.
      const yesterday = new Date(Date.now() - 86_400_000);
      pageViews.clock = () => yesterday;
      await visit(path, {});
      await settle(yesterday.toISOString().slice(0, 10), 1);
    } finally {
      pageViews.clock = () => new Date();
    }
    const [{ n: old }] = await db('analytics_salts')
      .count({ n: '*' })
      .where('day', '<', db.raw('current_date'));
    expect(Number(old)).toBe(1);
    await sweepAnalytics(db);
    for (const table of ['analytics_salts', 'analytics_seen']) {
      const [{ n }] = await db(table).count({ n: '*' }).where('day', '<', db.raw('current_date'));
      expect(Number(n)).toBe(0);
    }
    const [{ n: kept }] = await db('analytics_salts').count({ n: '*' }).where('day', '=', today());
    expect(Number(kept)).toBe(1);
  });

  it('credits an order to the post its buyer read last, and reports the product funnel', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { price: 2500 });
    const guest = new GuestClient(app);
    // A client-side navigation from the shop: React Router fetches the page's data.
    const navigation = await visit(`/product/${product.id}.data`, { referer: `${app.url}/shop` });
    expect(navigation.status).toBe(200);
    expect((await guest.add(product.id)).status).toBe(201);
    // Its data reloaded on the same page after a form: no new view.
    await visit(`/product/${product.id}.data`, { referer: `${app.url}/product/${product.id}` });
    const read = await visit(`/post/${post.slug}`, { 'x-session-id': guest.sid ?? '' });
    expect(read.status).toBe(200);
    await until(async () => {
      const row = await db('sessions')
        .where({ sid: guest.sid })
        .first(db.raw(`sess->'lastPost'->>'id' AS id`));
      return Number(row?.id) === post.id;
    }, 'the session remembers the post');
    const placed = await guest.checkout();
    expect(placed.status).toBe(201);
    const admin = await signedInSession(app, { role: 'admin' });
    const paid = await fetch(`${app.url}/api/admin/orders/${placed.body.id}?action=mark-paid`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(paid.status).toBe(200);
    await app.services.pageViews.flush();
    await until(
      async () => (await db('analytics_hourly').where({ product_id: product.id }).first())?.views === 1,
      'the product view rolled up',
      20_000,
    );

    const day = today();
    const answer = await fetch(`${app.url}/api/admin/analytics?from=${day}&to=${day}`, {
      headers: admin.headers,
    });
    expect(answer.status).toBe(200);
    const report = await answer.json();
    expect(report.totals).toMatchObject({ orders: 1, revenue: 2500 });
    expect(report.topPosts).toContainEqual(
      expect.objectContaining({ id: post.id, title: 'Counted', orders: 1, revenue: 2500 }),
    );
    expect(report.products).toContainEqual({
      id: product.id,
      name: product.name,
      views: 1,
      addToCarts: 1,
      orders: 1,
      revenue: 2500,
    });
    expect(report.series).toEqual([expect.objectContaining({ day, orders: 1, revenue: 2500 })]);
    expect(report.devices).toContainEqual({ name: 'desktop', views: expect.any(Number) });
  });

  it('counts every add to cart of a burst of shoppers at once, its rows per connection summed', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { price: 900 });
    const day = today();
    // Counted earlier by other connections: the report adds up a product's rows of the day.
    await db('analytics_cart_adds').insert([
      { day, product_id: product.id, slot: 14, adds: 5 },
      { day, product_id: product.id, slot: 15, adds: 2 },
    ]);
    const guests = Array.from({ length: 24 }, () => new GuestClient(app));
    const added = await Promise.all(guests.map((guest) => guest.add(product.id)));
    expect(added.map((a) => a.status)).toEqual(guests.map(() => 201));
    const admin = await signedInSession(app, { role: 'admin' });
    const answer = await fetch(`${app.url}/api/admin/analytics?from=${day}&to=${day}`, {
      headers: admin.headers,
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).products).toContainEqual(
      expect.objectContaining({ id: product.id, addToCarts: 31 }),
    );
  });

  it('counts the product page a post card’s Add to Cart opens as a view of the product', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { name: 'Card mug', price: 1200 });
    const markdown = `Try it: [product:${product.id}]`;
    const [withCard] = await db('posts')
      .insert({
        title: 'With a card',
        slug: 'with-a-card',
        content: markdown,
        content_html: renderMarkdown(markdown),
        excerpt: 'x',
        category: 'Life',
        status: 'published',
        published_at: new Date(),
      })
      .returning(['slug']);
    const postUrl = `${app.url}/post/${withCard.slug}`;
    const html = await (await visit(`/post/${withCard.slug}`, {})).text();
    const card = /<aside class="product-embed card"[\s\S]*?<\/aside>/.exec(html)?.[0] ?? '';
    const form = /<form action="([^"]+)" method="post">/.exec(card)?.[1] ?? '';
    const fields = new URLSearchParams(
      [...card.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]),
    );
    // The browser without JavaScript: the form's POST, then the page its 303 names, with GET.
    const added = await fetch(`${app.url}${form}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'x-forwarded-for': ADDRESS,
        'user-agent': BROWSER,
        origin: app.url,
        referer: postUrl,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: fields,
    });
    expect(added.status).toBe(303);
    const cookie = added.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const shown = await visit(new URL(added.headers.get('location') ?? '', app.url).pathname, {
      cookie,
      referer: postUrl,
    });
    expect(shown.status).toBe(200);
    await app.services.pageViews.flush();
    await until(
      async () => (await db('analytics_hourly').where({ product_id: product.id }).first())?.views === 1,
      'the product view rolled up',
      20_000,
    );
    const admin = await signedInSession(app, { role: 'admin' });
    const day = today();
    const report = await (
      await fetch(`${app.url}/api/admin/analytics?from=${day}&to=${day}`, { headers: admin.headers })
    ).json();
    expect(report.products).toContainEqual(
      expect.objectContaining({ id: product.id, views: 1, addToCarts: 1 }),
    );
  });

  it('reads $0.00 on the revenue chart’s axis for a range without revenue', async () => {
    const admin = await signedInSession(app, { role: 'admin' });
    const res = await fetch(`${app.url}/admin?tab=analytics&range=custom&from=2020-01-01&to=2020-01-31`, {
      headers: { cookie: admin.cookie },
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    const chart =
      /<svg[^>]*aria-labelledby="[^"]*"[^>]*><title[^>]*>Revenue per day[\s\S]*?<\/svg>/.exec(html)?.[0] ??
      '';
    expect(chart).toContain('>$0.00</text>');
    expect(chart).not.toContain('$0.01');
  });

  it('adds a batch run twice (a retried job) once', async () => {
    const { db } = app.services;
    const day = '2026-03-01';
    const batch = {
      batchId: '6c1f1b9e-8d3a-4a57-9d6e-2f6f0b1c2a10',
      views: [],
      hours: [{ hour: `${day}T10:00:00Z`, path: '/about', postId: null, productId: null, views: 3 }],
      visitors: [],
      referrers: [{ day, name: 'direct', views: 3 }],
      devices: [],
      countries: [],
    };
    await applyPageViews(db, batch);
    await applyPageViews(db, batch);
    expect(await dailyViews(day)).toEqual({ views: 3, visitors: 0 });
    expect(await db('analytics_referrers').where({ day }).select('source', 'views')).toEqual([
      { source: 'direct', views: 3 },
    ]);
  });

  it('adds up the views of one batch per hour: a visitor once a day, at the first hour they came', async () => {
    const { db, pageViews } = app.services;
    const day = '2026-03-02';
    const path = '/about';
    const view = (visitor: { address: string; userAgent: string } | null) => ({
      path,
      postId: null,
      productId: null,
      visitor,
      sessionId: null,
      source: 'Google',
      device: 'mobile' as const,
      country: 'NL',
    });
    const reader = { address: ADDRESS, userAgent: PHONE };
    try {
      pageViews.clock = () => new Date(`${day}T10:59:59Z`);
      pageViews.record(view(reader));
      pageViews.record(view(reader));
      pageViews.clock = () => new Date(`${day}T11:00:00Z`);
      pageViews.record(view(reader));
      pageViews.record(view(null)); // Do-Not-Track: a view, never a visitor
    } finally {
      pageViews.clock = () => new Date();
    }
    await settle(day, 4);
    expect(await dailyViews(day)).toEqual({ views: 4, visitors: 1 });
    expect(
      await db('analytics_hourly')
        .where({ path })
        .whereRaw('hour::date = ?', [day])
        .orderBy('hour')
        .select('views', 'visitors'),
    ).toEqual([
      { views: 2, visitors: 1 },
      { views: 2, visitors: 0 },
    ]);
    expect(await db('analytics_referrers').where({ day }).select('source', 'views')).toEqual([
      { source: 'Google', views: 4 },
    ]);
    expect(await db('analytics_countries').where({ day }).select('country', 'views')).toEqual([
      { country: 'NL', views: 4 },
    ]);
  });

  it('refuses bad ranges in clear words, and anyone but an admin', async () => {
    const admin = await signedInSession(app, { role: 'admin' });
    const ask = (query: string, headers = admin.headers) =>
      fetch(`${app.url}/api/admin/analytics${query}`, { headers }).then(async (r) => ({
        status: r.status,
        message: (await r.json()).message,
      }));
    expect(await ask('')).toEqual({ status: 400, message: 'from is required, as a date YYYY-MM-DD.' });
    expect(await ask('?from=2026-1-1&to=2026-01-31')).toEqual({
      status: 400,
      message: 'from must be a date as YYYY-MM-DD.',
    });
    expect(await ask('?from=2026-02-30&to=2026-03-01')).toEqual({
      status: 400,
      message: 'from is not a real date.',
    });
    expect(await ask('?from=2026-03-02&to=2026-03-01')).toEqual({
      status: 400,
      message: 'from must not be after to.',
    });
    expect(await ask('?from=2025-01-01&to=2026-01-02')).toEqual({
      status: 400,
      message: 'The range may span at most 366 days.',
    });
    expect(await ask('?from=2026-01-01&to=2026-01-02&to=2026-01-03')).toEqual({
      status: 400,
      message: 'Each query parameter must be given once.',
    });
    expect((await ask('?from=2025-01-01&to=2026-01-01')).status).toBe(200);
    expect(await ask('?from=2026-01-01&to=2026-01-02&format=xml')).toEqual({
      status: 400,
      message: 'format must be csv.',
    });
    expect(await ask('?from=2026-01-01&to=2026-01-02&format=csv&table=users')).toEqual({
      status: 400,
      message: 'table must be one of series, topPosts, referrers, devices, countries, products.',
    });
    const csv = await fetch(
      `${app.url}/api/admin/analytics?from=2026-01-01&to=2026-01-02&format=csv&table=series`,
      {
        headers: admin.headers,
      },
    );
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toBe(
      'day,views,visitors,orders,revenue\r\n2026-01-01,0,0,0,0\r\n2026-01-02,0,0,0,0\r\n',
    );
    const reader = await signedInSession(app);
    expect((await ask('?from=2026-01-01&to=2026-01-02', reader.headers)).status).toBe(403);
  });
});
