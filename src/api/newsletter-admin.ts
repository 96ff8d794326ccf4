import Router from '@koa/router';
import { exportSubscribersCsv } from '../blog/newsletter-export.ts';
import { requireAdmin } from '../identity/policy.ts';
import type { AppServices } from '../server/services.ts';

/** GET /api/newsletter?action=export (admins): subscribers as CSV. Subscribing belongs to the blog's router. */
export function newsletterAdminRouter(services: AppServices): Router {
  const router = new Router();
  router.get('/newsletter', async (ctx, next) => {
    if (ctx.query.action !== 'export') return next();
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', 'attachment; filename="newsletter-subscribers.csv"');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = await exportSubscribersCsv(services.db);
  });
  return router;
}
