import Router from '@koa/router';
import { requireAdmin } from '../identity/policy.ts';
import { parseInput } from '../kernel/parse.ts';
import type { AppServices } from '../server/services.ts';
import { updateBlogSettings } from '../settings/settings.ts';
import { blogSettingsSchema, SETTINGS_MESSAGES } from '../settings/settings-schema.ts';
import { readJsonBody } from './http.ts';

/** PUT /api/settings (admins). GET /api/settings belongs to the blog's router. */
export function settingsAdminRouter(services: AppServices): Router {
  const router = new Router();
  router.put('/settings', async (ctx) => {
    requireAdmin(ctx.state);
    const input = parseInput(blogSettingsSchema, await readJsonBody(ctx));
    const settings = await updateBlogSettings(services.db, input);
    ctx.body = { message: SETTINGS_MESSAGES.saved, settings };
  });
  return router;
}
