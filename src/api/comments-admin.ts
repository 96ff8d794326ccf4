import Router from '@koa/router';
import { z } from 'zod';
import { MODERATION_MESSAGES } from '../blog/comment-moderation-messages.ts';
import { commentSchema } from '../blog/comment-schema.ts';
import {
  COMMENT_STATUS_FILTERS,
  commentLabel,
  deleteComment,
  listComments,
  listPendingComments,
  moderateComment,
  replyFromModeration,
} from '../blog/moderation.ts';
import { requireAdmin } from '../identity/policy.ts';
import { NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import type { AppServices } from '../server/services.ts';
import { queryId, readJsonBody } from './http.ts';

export const listQuery = z.object({
  status: z.enum(COMMENT_STATUS_FILTERS).catch('all'),
  search: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export const moderateBody = z.object({ approved: z.boolean({ error: 'approved must be true or false' }) });
export const replyBody = commentSchema.pick({ content: true });

/**
 * Comment moderation (admins): GET ?action=all|pending, PUT ?id=&action=moderate,
 * POST ?id=&action=reply, DELETE ?id=.
 * Other /api/comments requests (a post's comments, posting, liking) go on to the blog's router.
 */
export function commentsAdminRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();
  router.get('/comments', async (ctx, next) => {
    const action = ctx.query.action;
    if (action !== 'all' && action !== 'pending') return next();
    requireAdmin(ctx.state);
    if (action === 'pending') {
      ctx.body = { comments: await listPendingComments(db) };
      return;
    }
    const query = parseInput(listQuery, ctx.query);
    const { comments, pagination } = await listComments(db, query);
    ctx.body = { comments, pagination };
  });
  router.put('/comments', async (ctx, next) => {
    if (ctx.query.action !== 'moderate') return next();
    requireAdmin(ctx.state);
    const id = queryId(ctx);
    const { approved } = parseInput(moderateBody, await readJsonBody(ctx));
    ctx.state.audit = {
      what: `${approved ? MODERATION_MESSAGES.approved : MODERATION_MESSAGES.rejected}: ${(await commentLabel(db, id)) ?? `comment #${id}`}`,
    };
    if (!(await moderateComment(db, id, approved ? 'approve' : 'reject')))
      throw new NotFound(MODERATION_MESSAGES.notFound);
    ctx.body = { message: approved ? MODERATION_MESSAGES.approved : MODERATION_MESSAGES.rejected };
  });
  router.post('/comments', async (ctx, next) => {
    if (ctx.query.action !== 'reply') return next();
    const admin = requireAdmin(ctx.state);
    const id = queryId(ctx);
    const { content } = parseInput(replyBody, await readJsonBody(ctx));
    if (!(await replyFromModeration(db, admin, id, content)))
      throw new NotFound(MODERATION_MESSAGES.notFound);
    ctx.status = 201;
    ctx.body = { message: MODERATION_MESSAGES.replied };
  });
  router.delete('/comments', async (ctx) => {
    requireAdmin(ctx.state);
    if (!(await deleteComment(db, queryId(ctx)))) throw new NotFound(MODERATION_MESSAGES.notFound);
    ctx.body = { message: MODERATION_MESSAGES.deleted };
  });
  return router;
}
