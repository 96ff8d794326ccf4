import { z } from 'zod';
import type { Db } from '../db/knex.ts';

export const MAX_RANGE_DAYS = 366;

const isoDay = (name: string) =>
  z
    .string({ error: `${name} is required, as a date YYYY-MM-DD.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date as YYYY-MM-DD.`)
    .refine(
      (v) =>
        !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
      {
        message: `${name} is not a real date.`,
      },
    );

const DAY_MS = 86_400_000;

/** The days from and to, both included: at most 366 of them. */
export const rangeSchema = z
  .object({ from: isoDay('from'), to: isoDay('to') })
  .refine((r) => r.from <= r.to, { message: 'from must not be after to.' })
  .refine((r) => daysIn(r) <= MAX_RANGE_DAYS, {
    message: `The range may span at most ${MAX_RANGE_DAYS} days.`,
  });

export type Range = { from: string; to: string };

function daysIn(range: Range): number {
  return (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS + 1;
}

/** The range of the same length just before this one. */
function previousRange(range: Range): Range {
  const days = daysIn(range);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(Date.parse(range.from) - days * DAY_MS), to: day(Date.parse(range.from) - DAY_MS) };
}

export const RANGE_PRESETS = [
  { id: 'today', label: 'Today', days: 1 },
  { id: '7d', label: '7 days', days: 7 },
  { id: '30d', label: '30 days', days: 30 },
  { id: '12m', label: '12 months', days: 365 },
] as const;

export type RangePreset = (typeof RANGE_PRESETS)[number]['id'];

/** The last n days up to today (UTC), today included. */
export function lastDays(days: number, now = new Date()): Range {
  const to = now.toISOString().slice(0, 10);
  return { from: new Date(Date.parse(to) - (days - 1) * DAY_MS).toISOString().slice(0, 10), to };
}

export type Totals = { views: number; visitors: number; orders: number; revenue: number };

export type AnalyticsReport = {
  from: string;
  to: string;
  totals: Totals;
  /** The same totals for the period of the same length just before. */
  previous: Totals;
  series: { day: string; views: number; visitors: number; orders: number; revenue: number }[];
  topPosts: { id: number; title: string; views: number; orders: number; revenue: number }[];
  referrers: { name: string; views: number }[];
  devices: { name: string; views: number }[];
  countries: { name: string; views: number }[];
  products: {
    id: number;
    name: string;
    views: number;
    addToCarts: number;
    orders: number;
    revenue: number;
  }[];
};

// Days are UTC, as the rollups are; an order belongs to the day it was placed. Revenue is what was
// paid less what was refunded, in cents, as on the dashboard.
const ORDERS_IN_RANGE = `created_at >= CAST(:from AS date)::timestamp AT TIME ZONE 'UTC'
  AND created_at < (CAST(:to AS date) + 1)::timestamp AT TIME ZONE 'UTC'`;

async function totals(db: Db, range: Range): Promise<Totals> {
  const { rows } = await db.raw(
    `SELECT (SELECT coalesce(sum(views), 0) FROM analytics_daily WHERE day BETWEEN :from AND :to)::int AS views,
            (SELECT coalesce(sum(visitors), 0) FROM analytics_daily WHERE day BETWEEN :from AND :to)::int AS visitors,
            count(*)::int AS orders,
            coalesce(sum(paid_amount - refunded_amount), 0)::bigint AS revenue
     FROM orders WHERE ${ORDERS_IN_RANGE}`,
    range,
  );
  return { ...rows[0], revenue: Number(rows[0].revenue) };
}

export async function analyticsReport(db: Db, range: Range, limit = 10): Promise<AnalyticsReport> {
  const params = { ...range, limit };
  const [current, previous, series, topPosts, referrers, devices, countries, products] = await Promise.all([
    totals(db, range),
    totals(db, previousRange(range)),
    db.raw(
      `SELECT to_char(d, 'YYYY-MM-DD') AS day, coalesce(a.views, 0)::int AS views,
              coalesce(a.visitors, 0)::int AS visitors, coalesce(o.orders, 0)::int AS orders,
              coalesce(o.revenue, 0)::bigint AS revenue
       FROM generate_series(CAST(:from AS date), CAST(:to AS date), interval '1 day') AS d
       LEFT JOIN analytics_daily a ON a.day = d::date
       LEFT JOIN (
         SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS orders,
                sum(paid_amount - refunded_amount) AS revenue
         FROM orders WHERE ${ORDERS_IN_RANGE} GROUP BY 1
       ) o ON o.day = d::date
       ORDER BY d`,
      range,
    ),
    db.raw(
      `WITH viewed AS (
         SELECT post_id, sum(views)::int AS views FROM analytics_paths_daily
         WHERE post_id IS NOT NULL AND day BETWEEN :from AND :to GROUP BY post_id
       ), sold AS (
         SELECT s.post_id, count(*)::int AS orders, sum(o.paid_amount - o.refunded_amount)::bigint AS revenue
         FROM order_sources s JOIN orders o ON o.id = s.order_id
         WHERE s.post_id IS NOT NULL AND ${ORDERS_IN_RANGE.replaceAll('created_at', 'o.created_at')}
         GROUP BY s.post_id
       )
       SELECT p.id, p.title, coalesce(v.views, 0) AS views, coalesce(s.orders, 0) AS orders,
              coalesce(s.revenue, 0) AS revenue
       FROM viewed v FULL JOIN sold s ON s.post_id = v.post_id
       JOIN posts p ON p.id = coalesce(v.post_id, s.post_id)
       ORDER BY views DESC, revenue DESC, p.id DESC LIMIT :limit`,
      params,
    ),
    db.raw(
      `SELECT source AS name, sum(views)::int AS views FROM analytics_referrers
       WHERE day BETWEEN :from AND :to GROUP BY source ORDER BY views DESC, name LIMIT :limit`,
      params,
    ),
    db.raw(
      `SELECT device AS name, sum(views)::int AS views FROM analytics_devices
       WHERE day BETWEEN :from AND :to GROUP BY device ORDER BY views DESC, name`,
      range,
    ),
    db.raw(
      `SELECT country AS name, sum(views)::int AS views FROM analytics_countries
       WHERE day BETWEEN :from AND :to GROUP BY country ORDER BY views DESC, name LIMIT :limit`,
      params,
    ),
    db.raw(
      `WITH viewed AS (
         SELECT product_id, sum(views)::int AS views FROM analytics_paths_daily
         WHERE product_id IS NOT NULL AND day BETWEEN :from AND :to GROUP BY product_id
       ), added AS (
         SELECT product_id, sum(adds)::int AS adds FROM analytics_cart_adds
         WHERE day BETWEEN :from AND :to GROUP BY product_id
       ), sold AS (
         SELECT i.product_id, count(DISTINCT o.id)::int AS orders,
                coalesce(sum(i.quantity * i.price_at_time) FILTER (WHERE o.payment_status = 'paid'), 0)::bigint
                  AS revenue
         FROM order_items i JOIN orders o ON o.id = i.order_id
         WHERE i.product_id IS NOT NULL AND ${ORDERS_IN_RANGE.replaceAll('created_at', 'o.created_at')}
         GROUP BY i.product_id
       ), ids AS (
         SELECT product_id FROM viewed UNION SELECT product_id FROM added UNION SELECT product_id FROM sold
       )
       SELECT p.id, p.name, coalesce(v.views, 0) AS views, coalesce(a.adds, 0) AS "addToCarts",
              coalesce(s.orders, 0) AS orders, coalesce(s.revenue, 0) AS revenue
       FROM ids JOIN products p ON p.id = ids.product_id
       LEFT JOIN viewed v ON v.product_id = p.id
       LEFT JOIN added a ON a.product_id = p.id
       LEFT JOIN sold s ON s.product_id = p.id
       ORDER BY revenue DESC, orders DESC, views DESC, p.id DESC LIMIT :limit`,
      params,
    ),
  ]);
  const money = <T extends { revenue: string | number }>(row: T) => ({
    ...row,
    revenue: Number(row.revenue),
  });
  return {
    ...range,
    totals: current,
    previous,
    series: series.rows.map(money),
    topPosts: topPosts.rows.map(money),
    referrers: referrers.rows,
    devices: devices.rows,
    countries: countries.rows,
    products: products.rows.map(money),
  };
}

export type DaySeries = { day: string; views: number; visitors: number }[];

/** Views and visitors per day of one post's or product's page(s), for its own admin page. */
export async function pageSeries(
  db: Db,
  page: { postId: number } | { productId: number },
  range: Range,
): Promise<DaySeries> {
  const [column, id] = 'postId' in page ? ['post_id', page.postId] : ['product_id', page.productId];
  const { rows } = await db.raw(
    `SELECT to_char(d, 'YYYY-MM-DD') AS day, coalesce(sum(p.views), 0)::int AS views,
            coalesce(sum(p.visitors), 0)::int AS visitors
     FROM generate_series(CAST(:from AS date), CAST(:to AS date), interval '1 day') AS d
     LEFT JOIN analytics_paths_daily p ON p.day = d::date AND p.${column} = :id
     GROUP BY d ORDER BY d`,
    { ...range, id },
  );
  return rows;
}
