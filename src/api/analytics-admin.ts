import Router from '@koa/router';
import { REPORT_TABLES, type ReportTable, reportCsv } from '../analytics/export.ts';
import { type AnalyticsReport, analyticsReport, rangeSchema } from '../analytics/report.ts';
import { requireAdmin } from '../identity/policy.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { type EncodedJson, encodeJson, sendEncodedJson } from '../server/json-cache.ts';
import type { AppServices } from '../server/services.ts';

const ANALYTICS_OFF = 'Analytics is off. Turn it on in Settings.';

/** Concurrent requests share a report (see analyticsReport): it is serialized and gzipped once. */
const encoded = new WeakMap<AnalyticsReport, Promise<EncodedJson>>();

function encodedReport(report: AnalyticsReport): Promise<EncodedJson> {
  let bytes = encoded.get(report);
  if (!bytes) {
    bytes = encodeJson(report);
    encoded.set(report, bytes);
  }
  return bytes;
}

/**
 * GET /api/admin/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD (admins): views, visitors and sales of a
 * range; with format=csv&table=… one of its tables as a CSV file. 404 while the 'Analytics' setting
 * is off.
 */
export function analyticsAdminRouter(services: AppServices): Router {
  const router = new Router();
  router.get('/admin/analytics', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    if (!(await services.analytics.isOn())) throw new NotFound(ANALYTICS_OFF);
    const { from, to, format, table } = ctx.query;
    if ([from, to, format, table].some(Array.isArray))
      throw new Invalid('Each query parameter must be given once.');
    const range = rangeSchema.safeParse({ from, to });
    if (!range.success) throw new Invalid(range.error.issues[0].message);
    if (format === undefined) {
      sendEncodedJson(ctx, await encodedReport(await analyticsReport(services.db, range.data)));
      return;
    }
    if (format !== 'csv') throw new Invalid('format must be csv.');
    if (!REPORT_TABLES.includes(table as ReportTable))
      throw new Invalid(`table must be one of ${REPORT_TABLES.join(', ')}.`);
    const report = await analyticsReport(services.db, range.data, 1_000);
    ctx.set(
      'Content-Disposition',
      `attachment; filename="analytics-${table}-${range.data.from}-${range.data.to}.csv"`,
    );
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = reportCsv(report, table as ReportTable);
  });
  return router;
}
