import Router from '@koa/router';
import { adminTestStats, analytics, dashboard, dashboardStats, recentActivity } from '../blog/dashboard.ts';
import { requireAdmin } from '../identity/policy.ts';
import { HttpError } from '../server/middleware.ts';
import type { AppServices } from '../server/services.ts';

/** GET /api/admin (dashboard; ?action=stats|analytics|recent-activity) and GET /api/admin-test (admins). */
export function adminRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();
  router.get('/admin', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    const action = ctx.query.action;
    if (action === undefined) ctx.body = await dashboard(db);
    else if (action === 'stats') ctx.body = { stats: await dashboardStats(db) };
    else if (action === 'analytics') ctx.body = await analytics(db);
    else if (action === 'recent-activity') ctx.body = { recentActivity: await recentActivity(db) };
    else throw new HttpError(400, 'Unknown action: use stats, analytics or recent-activity');
  });
  router.get('/admin-test', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await adminTestStats(db);
  });
  return router;
}
