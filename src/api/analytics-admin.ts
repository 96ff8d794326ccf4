import Router from '@koa/router';
import { analyticsReport, rangeSchema } from '../analytics/report.ts';
import { requireAdmin } from '../identity/policy.ts';
import { HttpError } from '../server/middleware.ts';
import type { AppServices } from '../server/services.ts';

/** GET /api/admin/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD (admins): views, visitors and sales of a range. */
export function analyticsAdminRouter(services: AppServices): Router {
  const router = new Router();
  router.get('/admin/analytics', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    const { from, to } = ctx.query;
    if (Array.isArray(from) || Array.isArray(to)) throw new HttpError(400, 'from and to must be given once.');
    const range = rangeSchema.safeParse({ from, to });
    if (!range.success) throw new HttpError(400, range.error.issues[0].message);
    ctx.body = await analyticsReport(services.db, range.data);
  });
  return router;
}
