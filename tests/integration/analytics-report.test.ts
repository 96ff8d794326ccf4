import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsReport, analyticsReport, lastDays } from '../../src/analytics/report.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createProductRow } from '../support/shop.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.close();
});

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);

async function changeNumber(): Promise<number> {
  return Number((await app.services.db('analytics_closed_changes').first('n')).n);
}

/** The report as the kept sums give it, and as a fresh process (nothing kept) would. */
async function bothWays(days: number): Promise<[AnalyticsReport, AnalyticsReport]> {
  const range = lastDays(days);
  // Another knex instance on the same pool: nothing kept for it yet.
  const fresh = app.services.db.withUserParams({});
  return [await analyticsReport(app.services.db, range), await analyticsReport(fresh, range)];
}

describe('the analytics report over closed days', () => {
  it('keeps closed days summed, yet answers exactly what the rows say after any change to them', async () => {
    const { db } = app.services;
    const [post] = await db('posts')
      .insert({
        title: 'Old',
        slug: 'old',
        content: 'x',
        excerpt: 'x',
        category: 'Life',
        status: 'published',
      })
      .returning(['id']);
    const product = await createProductRow(db, { price: 700 });
    const old = daysAgo(10);
    await db('analytics_daily').insert({ day: old, views: 5, visitors: 3 });
    await db('analytics_paths_daily').insert([
      { day: old, path: '/post/old', post_id: post.id, views: 5, visitors: 3 },
      { day: old, path: `/product/${product.id}`, product_id: product.id, views: 2, visitors: 1 },
    ]);
    await db('analytics_referrers').insert({ day: old, source: 'Google', views: 5 });
    expect(await changeNumber()).toBeGreaterThan(0);

    const [first, reference] = await bothWays(30);
    expect(first).toEqual(reference);
    expect(first.totals).toMatchObject({ views: 5, visitors: 3 });
    expect(first.topPosts).toEqual([{ id: post.id, title: 'Old', views: 5, orders: 0, revenue: 0 }]);
    expect(first.series.find((d) => d.day === old)).toMatchObject({ views: 5, visitors: 3 });

    // Today's rows are live: no change to a closed day.
    const before = await changeNumber();
    await db('analytics_daily').insert({ day: daysAgo(0), views: 1, visitors: 1 });
    await db('analytics_referrers').insert({ day: daysAgo(0), source: 'Google', views: 1 });
    expect(await changeNumber()).toBe(before);
    const [today] = await bothWays(30);
    expect(today.totals).toMatchObject({ views: 6, visitors: 4 });
    expect(today.referrers).toEqual([{ name: 'Google', views: 6 }]);

    // An order of a closed day, paid, then partly refunded: each change is in the next report.
    const [order] = await db('orders')
      .insert({
        id: 990_001,
        email: 'old@example.com',
        first_name: 'Old',
        last_name: 'Buyer',
        address: '1 Road',
        city: 'Town',
        postal_code: '12345',
        country: 'US',
        total_amount: 1400,
        paid_amount: 1400,
        payment_status: 'paid',
        version: 1,
        created_at: new Date(Date.parse(`${old}T12:00:00Z`)),
        updated_at: new Date(),
      })
      .returning(['id']);
    // Its line finds its day on the order.
    const placed = await changeNumber();
    await db('order_items').insert({
      order_id: order.id,
      product_id: product.id,
      quantity: 2,
      price_at_time: 700,
      product_name: product.name,
      created_at: new Date(),
      updated_at: new Date(),
    });
    expect(await changeNumber()).toBeGreaterThan(placed);
    await db('order_sources').insert({ order_id: order.id, post_id: post.id });
    const [sold, soldReference] = await bothWays(30);
    expect(sold).toEqual(soldReference);
    expect(sold.totals).toMatchObject({ orders: 1, revenue: 1400 });
    expect(sold.topPosts[0]).toMatchObject({ id: post.id, orders: 1, revenue: 1400 });
    expect(sold.products).toEqual([
      { id: product.id, name: product.name, views: 2, addToCarts: 0, orders: 1, revenue: 1400 },
    ]);
    // Shipping an old order changes no sum: the kept ones stay.
    const unchanged = await changeNumber();
    await db('orders').where({ id: order.id }).update({ status: 'shipped' });
    expect(await changeNumber()).toBe(unchanged);
    await db('orders').where({ id: order.id }).update({ refunded_amount: 400 });
    expect(await changeNumber()).toBeGreaterThan(unchanged);
    const [refunded, refundedReference] = await bothWays(30);
    expect(refunded).toEqual(refundedReference);
    expect(refunded.totals.revenue).toBe(1000);
    expect(refunded.topPosts[0].revenue).toBe(1000);

    // A deleted post leaves the closed days' top posts; the range before counts them too.
    await db('posts').where({ id: post.id }).delete();
    const [deleted, deletedReference] = await bothWays(30);
    expect(deleted).toEqual(deletedReference);
    expect(deleted.topPosts).toEqual([]);
    const [week] = await bothWays(7);
    expect(week.previous).toMatchObject({ views: 5, orders: 1, revenue: 1000 });
  });

  it('adds a live day to the closed sums of an entry below the first ones', async () => {
    const { db } = app.services;
    const [a, b] = await db('posts')
      .insert(
        ['a', 'b'].map((slug) => ({
          title: slug.toUpperCase(),
          slug,
          content: 'x',
          excerpt: 'x',
          category: 'Life',
          status: 'published',
        })),
      )
      .returning(['id']);
    await db('analytics_paths_daily').insert([
      { day: daysAgo(3), path: '/post/a', post_id: a.id, views: 10 },
      { day: daysAgo(3), path: '/post/b', post_id: b.id, views: 8 },
    ]);
    const range = lastDays(30);
    expect((await analyticsReport(db, range, 1)).topPosts).toMatchObject([{ id: a.id, views: 10 }]);
    // Today B is read 5 times: its 8 closed views count too.
    await db('analytics_paths_daily').insert({ day: daysAgo(0), path: '/post/b', post_id: b.id, views: 5 });
    expect((await analyticsReport(db, range, 1)).topPosts).toMatchObject([{ id: b.id, views: 13 }]);
  });
});
