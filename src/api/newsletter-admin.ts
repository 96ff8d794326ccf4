import Router from '@koa/router';
import { newsletterAudienceSchema } from '../blog/newsletter-audience.ts';
import {
  NEWSLETTER_MESSAGES,
  newsletterProgress,
  requestNewsletter,
  sendTestNewsletter,
} from '../blog/newsletter-delivery.ts';
import { exportSubscribersCsv } from '../blog/newsletter-export.ts';
import { requireAdmin } from '../identity/policy.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import type { AppServices } from '../server/services.ts';
import { readJsonBody, SMALL_BODY } from './http.ts';

/**
 * GET /api/newsletter?action=export (admins): subscribers as CSV; a post's newsletter under
 * /api/admin/posts/:id/newsletter. Subscribing belongs to the blog's router.
 */
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

  const postIdOf = (raw: string) => {
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    if (!id) throw new NotFound(NEWSLETTER_MESSAGES.postNotFound);
    return id;
  };

  /** A post's newsletter: its state and counts (state null while it has not been sent). */
  router.get('/admin/posts/:id/newsletter', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    const id = postIdOf(ctx.params.id);
    if (!(await services.db('posts').where({ id }).first('id')))
      throw new NotFound(NEWSLETTER_MESSAGES.postNotFound);
    ctx.body = await newsletterProgress(services.db, id);
  });

  /** Sends the post to every confirmed subscriber, once; ?test=1 mails only the signed-in admin. */
  router.post('/admin/posts/:id/newsletter', async (ctx) => {
    const user = requireAdmin(ctx.state);
    const id = postIdOf(ctx.params.id);
    const body = await readJsonBody(ctx, SMALL_BODY);
    if (ctx.query.test !== undefined) {
      if (ctx.query.test !== '1') throw new Invalid('test must be 1');
      await sendTestNewsletter(
        services.db,
        services.mailer,
        { publicUrl: services.publicUrl, currency: services.config.currency },
        id,
        user.email,
      );
      ctx.body = { message: `Test sent to ${user.email}` };
      return;
    }
    const audience = parseInput(newsletterAudienceSchema, body ?? {});
    await requestNewsletter(services.db, id, user.id, audience);
    ctx.status = 202;
    ctx.body = await newsletterProgress(services.db, id);
  });
  return router;
}
