import type { z } from 'zod';
import { applyViews } from '../blog/views.ts';
import type { Db } from '../db/knex.ts';
import type { jobSchemas } from '../jobs/names.ts';
import { getBlogSettings } from '../settings/settings.ts';

type Batch = z.output<(typeof jobSchemas)['views.record']>;

const DAY_TABLES = {
  referrers: ['analytics_referrers', 'source'],
  devices: ['analytics_devices', 'device'],
  countries: ['analytics_countries', 'country'],
} as const;

/** The job: adds one batch of page views to the rollups, in one transaction. */
export async function applyPageViews(db: Db, batch: Batch): Promise<void> {
  await applyViews(db, batch.views);
  // A batch a web process collected just before the setting went off: nothing more is stored.
  if (!(await getBlogSettings(db)).analytics) return;
  await db.transaction(async (trx) => {
    if (batch.batchId) {
      const fresh = await trx('analytics_batches')
        .insert({ id: batch.batchId })
        .onConflict('id')
        .ignore()
        .returning('id');
      if (!fresh.length) return;
    }
    if (batch.hours.length) {
      const hours = JSON.stringify(
        batch.hours.map((h) => ({
          hour: h.hour,
          day: h.hour.slice(0, 10),
          path: h.path,
          post_id: h.postId,
          product_id: h.productId,
          views: h.views,
        })),
      );
      // The same views per hour and, summed, per day.
      for (const [table, key] of [
        ['analytics_hourly', 'hour'],
        ['analytics_paths_daily', 'day'],
      ] as const) {
        await trx.raw(
          `INSERT INTO ${table} (${key}, path, post_id, product_id, views)
           SELECT h.${key}, h.path,
                  (SELECT id FROM posts WHERE id = min(h.post_id)),
                  (SELECT id FROM products WHERE id = min(h.product_id)),
                  sum(h.views)
           FROM jsonb_to_recordset(?::jsonb)
             AS h(hour timestamptz, day date, path text, post_id int, product_id int, views int)
           GROUP BY 1, 2 ORDER BY 1, 2
           ON CONFLICT (${key}, path) DO UPDATE SET views = ${table}.views + excluded.views`,
          [hours],
        );
      }
      const byDay = new Map<string, number>();
      for (const h of batch.hours) {
        const day = h.hour.slice(0, 10);
        byDay.set(day, (byDay.get(day) ?? 0) + h.views);
      }
      await trx.raw(
        `INSERT INTO analytics_daily (day, views)
         SELECT d.day, d.views FROM jsonb_to_recordset(?::jsonb) AS d(day date, views int) ORDER BY 1
         ON CONFLICT (day) DO UPDATE SET views = analytics_daily.views + excluded.views`,
        [JSON.stringify([...byDay].map(([day, views]) => ({ day, views })))],
      );
    }
    if (batch.visitors.length) {
      // Only visitors not seen before today on that path count; the others were counted already.
      await trx.raw(
        `WITH input AS (
           SELECT * FROM jsonb_to_recordset(?::jsonb) AS v(day date, hour timestamptz, path text, visitor text)
         ), fresh AS (
           INSERT INTO analytics_seen (day, visitor, path)
           SELECT day, visitor, path FROM input ORDER BY 1, 2, 3
           ON CONFLICT DO NOTHING
           RETURNING day, visitor, path
         ), counted AS (
           SELECT i.day, i.hour, i.path, count(*)::int AS n
           FROM fresh f JOIN input i USING (day, visitor, path)
           GROUP BY i.day, i.hour, i.path
         ), site AS (
           UPDATE analytics_daily d SET visitors = d.visitors + c.n
           FROM (SELECT day, sum(n)::int AS n FROM counted WHERE path = '' GROUP BY 1) c
           WHERE d.day = c.day
         ), paths AS (
           UPDATE analytics_paths_daily d SET visitors = d.visitors + c.n
           FROM (SELECT day, path, sum(n)::int AS n FROM counted WHERE path <> '' GROUP BY 1, 2) c
           WHERE d.day = c.day AND d.path = c.path
         )
         UPDATE analytics_hourly h SET visitors = h.visitors + c.n
         FROM counted c WHERE c.path <> '' AND h.hour = c.hour AND h.path = c.path`,
        [JSON.stringify(batch.visitors)],
      );
    }
    for (const [key, [table, column]] of Object.entries(DAY_TABLES)) {
      const rows = batch[key as keyof typeof DAY_TABLES];
      if (!rows.length) continue;
      await trx.raw(
        `INSERT INTO ${table} (day, ${column}, views)
         SELECT r.day, r.name, r.views FROM jsonb_to_recordset(?::jsonb) AS r(day date, name text, views int)
         ORDER BY 1, 2
         ON CONFLICT (day, ${column}) DO UPDATE SET views = ${table}.views + excluded.views`,
        [JSON.stringify(rows)],
      );
    }
  });
}

/**
 * Yesterday's salts and visitor hashes go: after that, no hash can be tied to a visitor. Batch ids
 * go after two days, long past any retry of their job.
 */
export async function sweepAnalytics(db: Db): Promise<void> {
  await db('analytics_batches').where('applied_at', '<', db.raw(`now() - interval '2 days'`)).delete();
  await db('analytics_seen').where('day', '<', db.raw('current_date')).delete();
  await db('analytics_salts').where('day', '<', db.raw('current_date')).delete();
}
