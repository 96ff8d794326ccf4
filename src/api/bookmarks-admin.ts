import Router from '@koa/router';
import { bookmarkSchema } from '../blog/bookmark-schema.ts';
import { readBookmark } from '../blog/bookmarks.ts';
import { requireAdmin } from '../identity/policy.ts';
import { parseInput } from '../kernel/parse.ts';
import { rateLimit } from '../kernel/rate-limit.ts';
import type { AppServices } from '../server/services.ts';
import { readJsonBody, SMALL_BODY } from './http.ts';

/** POST /api/admin/bookmarks {url}: the page's title, description and image, for a bookmark card. */
export function bookmarksAdminRouter(services: AppServices): Router {
  const router = new Router();
  const limit = rateLimit(services.db, 'bookmarks');
  router.post('/admin/bookmarks', async (ctx) => {
    const user = requireAdmin(ctx.state);
    const { url } = parseInput(bookmarkSchema, await readJsonBody(ctx, SMALL_BODY));
    await limit.consume(String(user.id));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readBookmark(url, services.config.importAllowedAddresses);
  });
  return router;
}
