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
const ordersIn = (from: string, to: string, alias = '') =>
  `${alias}created_at >= CAST(${from} AS date)::timestamp AT TIME ZONE 'UTC'
   AND ${alias}created_at < (CAST(${to} AS date) + 1)::timestamp AT TIME ZONE 'UTC'`;

/**
 * The sums of the days from..to (bind names), by what the report lists: they add up across days,
 * so a range's sums are its kept closed days' plus its live days'. An order counts once per
 * product it holds, in the one day it was placed.
 */
const SUMS = {
  days: (from: string, to: string) =>
    `SELECT day, sum(views) AS views, sum(visitors) AS visitors, sum(orders) AS orders, sum(revenue) AS revenue
     FROM (
       SELECT day, views, visitors, 0 AS orders, 0 AS revenue FROM analytics_daily WHERE day BETWEEN ${from} AND ${to}
       UNION ALL
       SELECT (created_at AT TIME ZONE 'UTC')::date, 0, 0, 1, paid_amount - refunded_amount
       FROM orders WHERE ${ordersIn(from, to)}
     ) x GROUP BY day`,
  posts: (from: string, to: string) =>
    `SELECT coalesce(v.post_id, s.post_id) AS id, coalesce(v.views, 0) AS views, coalesce(s.orders, 0) AS orders,
            coalesce(s.revenue, 0) AS revenue
     FROM (
       SELECT post_id, sum(views) AS views FROM analytics_paths_daily
       WHERE post_id IS NOT NULL AND day BETWEEN ${from} AND ${to} GROUP BY post_id
     ) v FULL JOIN (
       SELECT s.post_id, count(*) AS orders, sum(o.paid_amount - o.refunded_amount) AS revenue
       FROM order_sources s JOIN orders o ON o.id = s.order_id
       WHERE s.post_id IS NOT NULL AND ${ordersIn(from, to, 'o.')}
       GROUP BY s.post_id
     ) s ON s.post_id = v.post_id`,
  products: (from: string, to: string) =>
    `SELECT product_id AS id, sum(views) AS views, sum(adds) AS adds, sum(orders) AS orders, sum(revenue) AS revenue
     FROM (
       SELECT product_id, views, 0 AS adds, 0 AS orders, 0 AS revenue FROM analytics_paths_daily
       WHERE product_id IS NOT NULL AND day BETWEEN ${from} AND ${to}
       UNION ALL
       SELECT product_id, 0, adds, 0, 0 FROM analytics_cart_adds WHERE day BETWEEN ${from} AND ${to}
       UNION ALL
       SELECT i.product_id, 0, 0, count(DISTINCT o.id),
              coalesce(sum(i.quantity * i.price_at_time) FILTER (WHERE o.payment_status = 'paid'), 0)
       FROM order_items i JOIN orders o ON o.id = i.order_id
       WHERE i.product_id IS NOT NULL AND ${ordersIn(from, to, 'o.')}
       GROUP BY i.product_id
     ) x GROUP BY product_id`,
  referrers: (from: string, to: string) =>
    `SELECT source AS name, sum(views) AS views FROM analytics_referrers WHERE day BETWEEN ${from} AND ${to} GROUP BY 1`,
  devices: (from: string, to: string) =>
    `SELECT device AS name, sum(views) AS views FROM analytics_devices WHERE day BETWEEN ${from} AND ${to} GROUP BY 1`,
  countries: (from: string, to: string) =>
    `SELECT country AS name, sum(views) AS views FROM analytics_countries WHERE day BETWEEN ${from} AND ${to} GROUP BY 1`,
} as const;

type Part = keyof typeof SUMS;
const PARTS = Object.keys(SUMS) as Part[];

/**
 * Each part's columns as its kept sums are read back (the first one its key) and, for a listed
 * part, its order. A report passes back only the first `limit` closed sums of a listed part and
 * those of the entries the live days have: adding live days never lowers a sum, so an entry with
 * neither can not rise above the first `limit`.
 */
const KEPT: Record<Part, { columns: string; order?: string }> = {
  days: { columns: 'day date, views bigint, visitors bigint, orders bigint, revenue bigint' },
  posts: {
    columns: 'id int, views bigint, orders bigint, revenue bigint',
    order: 'views DESC, revenue DESC, id DESC',
  },
  products: {
    columns: 'id int, views bigint, adds bigint, orders bigint, revenue bigint',
    order: 'revenue DESC, orders DESC, views DESC, id DESC',
  },
  referrers: { columns: 'name text, views bigint', order: 'views DESC, name' },
  devices: { columns: 'name text, views bigint' },
  countries: { columns: 'name text, views bigint', order: 'views DESC, name' },
};

/** The report's closed days as of a change number (see the analytics_closed_changes migration). */
type Closed = { stamp: string; end: string };
type Row = Record<string, string | number>;
/** A part's kept sums: all of them by key, and the first `limit` of a listed part. */
type KeptPart = { all: Map<string | number, Row>; first: Row[] };
/** Kept sums of the closed days up to `to`. */
type Kept = Closed & { to: string; parts: Partial<Record<Part, KeptPart>> };

/**
 * Per database (tests run several): what is closed, the closed days' sums of recent ranges, and
 * the reports and sums being read right now, which concurrent callers share.
 */
type State = {
  closed: Closed | null;
  sums: Map<string, Kept>;
  reading: Map<string, Promise<Kept>>;
  reporting: Map<string, Promise<AnalyticsReport>>;
};
const states = new WeakMap<Db, State>();
const KEPT_RANGES = 16;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The sums of closed days from..to, with the change number they were read at. */
async function closedSums(db: Db, from: string, to: string, parts: Part[], limit: number): Promise<Kept> {
  const { rows } = await db.raw(
    `WITH ${parts.map((part) => `sum_${part} AS MATERIALIZED (${SUMS[part](':from', ':to')})`).join(',\n')}
     SELECT (SELECT n FROM analytics_closed_changes)::text AS stamp, analytics_closed_end()::text AS "end",
       ${parts
         .map((part) => {
           const { order } = KEPT[part];
           const first = order ? `(SELECT * FROM sum_${part} ORDER BY ${order} LIMIT :limit)` : `sum_${part}`;
           return `(SELECT coalesce(json_agg(x), '[]') FROM sum_${part} x) AS ${part},
                   (SELECT coalesce(json_agg(x), '[]') FROM ${first} x) AS ${part}_first`;
         })
         .join(',\n')}`,
    { from, to, limit },
  );
  const sums = rows[0];
  const kept: Kept = { stamp: sums.stamp, end: sums.end, to, parts: {} };
  for (const part of parts) {
    const key = keyOf(part);
    kept.parts[part] = {
      all: new Map((sums[part] as Row[]).map((row) => [row[key], row])),
      first: sums[`${part}_first`],
    };
  }
  return kept;
}

const keyOf = (part: Part) => KEPT[part].columns.split(' ')[0];
/** The parts a report lists only the first `limit` of. */
const LISTED = PARTS.filter((part) => KEPT[part].order);

/** What a report passes back of a part's kept sums: the first ones and those of the live entries. */
function keptJson(kept: Kept | null, part: Part, live: (string | number)[] | undefined): string {
  const sums = kept?.parts[part];
  if (!sums) return '[]';
  if (!KEPT[part].order) return JSON.stringify([...sums.all.values()]);
  const key = keyOf(part);
  const rows = new Map(sums.first.map((row) => [row[key], row]));
  for (const id of live ?? []) {
    const row = sums.all.get(id);
    if (row) rows.set(id, row);
  }
  return JSON.stringify([...rows.values()]);
}

/** The kept sums of a range's closed days, read again when a closed day changed or a day closed. */
async function keptSums(
  db: Db,
  state: State,
  range: Range,
  closed: Closed,
  parts: Part[],
  limit: number,
): Promise<Kept | null> {
  const to = range.to < closed.end ? range.to : closed.end;
  if (range.from > to) return null;
  const key = `${parts.join()}|${limit}|${range.from}|${to}`;
  const hit = state.sums.get(key);
  if (hit && hit.stamp === closed.stamp) return hit;
  // Being read already: the report's statement checks its change number like any other's.
  const reading = state.reading.get(key);
  if (reading) return reading;
  const fresh = closedSums(db, range.from, to, parts, limit);
  state.reading.set(key, fresh);
  try {
    const sums = await fresh;
    state.sums.delete(key);
    state.sums.set(key, sums);
    if (state.sums.size > KEPT_RANGES) state.sums.delete(state.sums.keys().next().value as string);
    return sums;
  } finally {
    if (state.reading.get(key) === fresh) state.reading.delete(key);
  }
}

/** A part's sums: the kept closed days' (JSON in :<kept><Part>) plus the live days' (:<live>From..:<live>To). */
function merged(part: Part, keptParam: string, live: string): string {
  const [key, ...sums] = KEPT[part].columns.split(', ').map((column) => column.split(' ')[0]);
  return `SELECT ${key}, ${sums.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM (
      SELECT * FROM jsonb_to_recordset(CAST(:${keptParam} AS jsonb)) AS k(${KEPT[part].columns})
      UNION ALL ${SUMS[part](`:${live}From`, `:${live}To`)}
    ) x GROUP BY ${key}`;
}

/**
 * One statement for the whole report: the kept sums of the closed days (in memory, passed back as
 * JSON) plus the live days', ordered, limited and named as before (named after the limit: every id
 * in the sums is a post's or product's, their foreign keys see to it). It also answers the change
 * number, in the same snapshot: a different one than the kept sums', and they are read again.
 */
const REPORT_SQL = `WITH
  days AS (${merged('days', 'keptDays', 'live')}),
  previous_days AS (${merged('days', 'keptPreviousDays', 'previousLive')}),
  post_sums AS (${merged('posts', 'keptPosts', 'live')}),
  product_sums AS (${merged('products', 'keptProducts', 'live')}),
  referrer_sums AS (${merged('referrers', 'keptReferrers', 'live')}),
  device_sums AS (${merged('devices', 'keptDevices', 'live')}),
  country_sums AS (${merged('countries', 'keptCountries', 'live')})
SELECT
  (SELECT n FROM analytics_closed_changes)::text AS stamp,
  analytics_closed_end()::text AS "end",
  (SELECT json_build_object('views', coalesce(sum(views), 0)::int, 'visitors', coalesce(sum(visitors), 0)::int,
     'orders', coalesce(sum(orders), 0)::int, 'revenue', coalesce(sum(revenue), 0)::bigint) FROM days) AS totals,
  (SELECT json_build_object('views', coalesce(sum(views), 0)::int, 'visitors', coalesce(sum(visitors), 0)::int,
     'orders', coalesce(sum(orders), 0)::int, 'revenue', coalesce(sum(revenue), 0)::bigint) FROM previous_days) AS previous,
  (SELECT json_agg(s ORDER BY s.day) FROM (
     SELECT to_char(d, 'YYYY-MM-DD') AS day, coalesce(a.views, 0)::int AS views,
            coalesce(a.visitors, 0)::int AS visitors, coalesce(a.orders, 0)::int AS orders,
            coalesce(a.revenue, 0)::bigint AS revenue
     FROM generate_series(CAST(:from AS date), CAST(:to AS date), interval '1 day') AS d
     LEFT JOIN days a ON a.day = d::date
   ) s) AS series,
  (SELECT coalesce(json_agg(t ORDER BY t.views DESC, t.revenue DESC, t.id DESC), '[]') FROM (
     SELECT p.id, p.title, v.views::int AS views, v.orders::int AS orders, v.revenue::bigint AS revenue
     FROM (SELECT * FROM post_sums ORDER BY views DESC, revenue DESC, id DESC LIMIT :limit) v
     JOIN posts p ON p.id = v.id
   ) t) AS "topPosts",
  (SELECT coalesce(json_agg(t ORDER BY t.views DESC, t.name), '[]') FROM (
     SELECT name, views::int AS views FROM referrer_sums ORDER BY views DESC, name LIMIT :limit
   ) t) AS referrers,
  (SELECT coalesce(json_agg(t ORDER BY t.views DESC, t.name), '[]') FROM (
     SELECT name, views::int AS views FROM device_sums
   ) t) AS devices,
  (SELECT coalesce(json_agg(t ORDER BY t.views DESC, t.name), '[]') FROM (
     SELECT name, views::int AS views FROM country_sums ORDER BY views DESC, name LIMIT :limit
   ) t) AS countries,
  (SELECT coalesce(json_agg(t ORDER BY t.revenue DESC, t.orders DESC, t.views DESC, t.id DESC), '[]') FROM (
     SELECT p.id, p.name, v.views::int AS views, v.adds::int AS "addToCarts", v.orders::int AS orders,
            v.revenue::bigint AS revenue
     FROM (SELECT * FROM product_sums ORDER BY revenue DESC, orders DESC, views DESC, id DESC LIMIT :limit) v
     JOIN products p ON p.id = v.id
   ) t) AS products`;

/**
 * The report of a range. Its closed days (all but today, see analytics_closed_end) are
 * summed once and kept; each report adds the live days to them in one statement, so a year costs
 * about what a few days cost. Closed days change rarely (a refund of an old order, a deleted post):
 * the statement's change number then differs and the kept sums are read again.
 */
export async function analyticsReport(db: Db, range: Range, limit = 10): Promise<AnalyticsReport> {
  let state = states.get(db);
  if (!state) {
    state = { closed: null, sums: new Map(), reading: new Map(), reporting: new Map() };
    states.set(db, state);
  }
  // Requests for the same report while it is being read share it, as a burst of readers of a page
  // being rendered shares that render: none gets data older than its own arrival by more than one
  // reading.
  const key = `${range.from}|${range.to}|${limit}`;
  const reporting = state.reporting.get(key);
  if (reporting) return reporting;
  const report = readReport(db, state, range, limit);
  state.reporting.set(key, report);
  try {
    return await report;
  } finally {
    state.reporting.delete(key);
  }
}

async function readReport(db: Db, state: State, range: Range, limit: number): Promise<AnalyticsReport> {
  const previous = previousRange(range);
  for (let attempt = 0; ; attempt++) {
    if (!state.closed) {
      const { rows } = await db.raw(
        `SELECT n::text AS stamp, analytics_closed_end()::text AS "end" FROM analytics_closed_changes`,
      );
      state.closed = rows[0] as Closed;
    }
    const closed = state.closed;
    // Closed days changing faster than they can be summed: everything live, as without kept sums.
    const useKept = attempt < 3;
    const [current, before] = useKept
      ? await Promise.all([
          keptSums(db, state, range, closed, PARTS, limit),
          keptSums(db, state, previous, closed, ['days'], limit),
        ])
      : [null, null];
    const liveFrom = (r: Range, sums: Kept | null) => (sums ? dayOf(Date.parse(sums.to) + DAY_MS) : r.from);
    const live = { liveFrom: liveFrom(range, current), liveTo: range.to };
    // One snapshot for the live entries read first and the report's statement.
    const report = await db.transaction(
      async (trx) => {
        const listed = current
          ? (
              await trx.raw(
                `SELECT ${LISTED.map(
                  (part) =>
                    `(SELECT coalesce(json_agg(${keyOf(part)}), '[]') FROM (${SUMS[part](':liveFrom', ':liveTo')}) x) AS ${part}`,
                ).join(', ')}`,
                live,
              )
            ).rows[0]
          : {};
        const { rows } = await trx.raw(REPORT_SQL, {
          ...range,
          ...live,
          limit,
          ...Object.fromEntries(
            PARTS.map((part) => [
              `kept${part[0].toUpperCase()}${part.slice(1)}`,
              keptJson(current, part, listed[part]),
            ]),
          ),
          keptPreviousDays: keptJson(before, 'days', undefined),
          previousLiveFrom: liveFrom(previous, before),
          previousLiveTo: previous.to,
        });
        return rows[0];
      },
      { isolationLevel: 'repeatable read' },
    );
    state.closed = { stamp: report.stamp, end: report.end };
    // A closed day changed since its sums were kept: they are read again.
    if ([current, before].some((sums) => sums && sums.stamp !== report.stamp)) continue;
    return {
      ...range,
      totals: report.totals,
      previous: report.previous,
      series: report.series,
      topPosts: report.topPosts,
      referrers: report.referrers,
      devices: report.devices,
      countries: report.countries,
      products: report.products,
    };
  }
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
