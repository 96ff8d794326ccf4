import Router from '@koa/router';
import { adminTestStats, analytics, dashboard, dashboardStats, recentActivity } from '../blog/dashboard.ts';
import { requireAdmin } from '../identity/policy.ts';
import { Invalid } from '../kernel/errors.ts';
import { auditCsv, listAudit } from '../server/audit.ts';
import type { AppServices } from '../server/services.ts';

/** GET /api/admin (dashboard; ?action=stats|analytics|recent-activity) and GET /api/admin-test (admins). */
export function adminRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();
  router.get('/admin', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    const action = ctx.query.action;
    if (action === undefined) ctx.body = await dashboard(db, services.config.currency);
    else if (action === 'stats') ctx.body = { stats: await dashboardStats(db, services.config.currency) };
    else if (action === 'analytics') ctx.body = await analytics(db);
    else if (action === 'recent-activity') ctx.body = { recentActivity: await recentActivity(db) };
    else throw new Invalid('Unknown action: use stats, analytics or recent-activity');
  });
  /** The audit log (admins): ?actor= and ?action= filter, ?page=, ?format=csv for the whole of it. */
  router.get('/admin/audit', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    const one = (name: string) => {
      const value = ctx.query[name];
      if (Array.isArray(value)) throw new Invalid(`Query parameter ${name} must be given once`);
      return value?.slice(0, 200);
    };
    const page = one('page');
    if (page !== undefined && !/^\d{1,6}$/.test(page)) throw new Invalid('page must be a positive integer');
    const format = one('format');
    if (format !== undefined && format !== 'csv') throw new Invalid('format must be csv');
    const filter = { actor: one('actor'), action: one('action') };
    if (format === 'csv') {
      const { entries } = await listAudit(db, { ...filter, limit: 10_000 });
      ctx.set('Content-Disposition', 'attachment; filename="audit-log.csv"');
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = auditCsv(entries);
      return;
    }
    ctx.body = await listAudit(db, { ...filter, page: page ? Math.max(Number(page), 1) : 1 });
  });
  router.get('/admin-test', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await adminTestStats(db);
  });
  return router;
}
