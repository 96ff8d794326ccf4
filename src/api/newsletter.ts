import Router from '@koa/router';
import { BLOG_MESSAGES } from '../blog/messages.ts';
import { newsletterSchema, subscribe } from '../blog/newsletter.ts';
import { parseInput } from '../kernel/parse.ts';
import { rateLimit } from '../kernel/rate-limit.ts';
import type { AppServices } from '../server/services.ts';
import { readJsonBody, SMALL_BODY } from './http.ts';

/** POST /api/newsletter {email}: double opt-in subscription; the same answer for new and known addresses. */
export function newsletterRouter(services: AppServices): Router {
  const router = new Router();
  const limit = rateLimit(services.db, 'newsletter');
  router.post('/newsletter', async (ctx, next) => {
    if (ctx.query.action !== undefined) return next();
    const { email } = parseInput(newsletterSchema, await readJsonBody(ctx, SMALL_BODY));
    await limit.consume(ctx.state.clientIp);
    await subscribe(services.db, services.queues, email, services.publicUrl);
    ctx.body = { message: BLOG_MESSAGES.subscribed.description };
  });
  return router;
}
