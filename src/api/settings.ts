import Router from '@koa/router';
import type { AppServices } from '../server/services.ts';
import { getBlogSettings } from '../settings/settings.ts';

/** GET /api/settings: the public blog settings. */
export function settingsRouter(services: AppServices): Router {
  const router = new Router();
  router.get('/settings', async (ctx) => {
    const settings = await getBlogSettings(services.db);
    ctx.body = { settings };
  });
  return router;
}
