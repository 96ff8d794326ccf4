import Router from '@koa/router';
import { z } from 'zod';
import { commentSchema } from '../blog/comment-schema.ts';
import { approvedComments, commentWriter, createComment, likeComment, likerOf } from '../blog/comments.ts';
import { BLOG_MESSAGES } from '../blog/messages.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import { rateLimit } from '../kernel/rate-limit.ts';
import type { AppServices } from '../server/services.ts';
import { queryId, readJsonBody, SMALL_BODY } from './http.ts';

export const listQuery = z.object({
  postId: z.coerce
    .number({ error: 'postId must be a positive integer' })
    .int()
    .positive('postId must be a positive integer')
    .max(2 ** 31 - 1, 'postId must be a positive integer'),
  before: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1)
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/** Public comments (SPEC §7): approved ones only, no email ever; posting; one like per session. */
export function commentsRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();
  const commentLimit = rateLimit(db, 'comments');

  router.get('/comments', async (ctx, next) => {
    if (ctx.query.action !== undefined) return next();
    const params = parseInput(listQuery, ctx.query);
    ctx.body = await approvedComments(db, params.postId, params);
  });

  router.post('/comments', async (ctx, next) => {
    if (ctx.query.action !== undefined) return next();
    const input = parseInput(commentSchema, await readJsonBody(ctx, SMALL_BODY));
    await commentLimit.consume(ctx.state.clientIp);
    const created = await createComment(db, input, { writer: commentWriter(ctx.state.session) });
    if (created === 'no-post') throw new NotFound('Post not found');
    if (created === 'no-parent') throw new Invalid(BLOG_MESSAGES.replyParentMissing.description);
    ctx.status = 201;
    ctx.body = {
      comment: {
        id: created.id,
        postId: input.postId,
        parentId: created.parentId,
        author: input.author,
        content: input.content,
        approved: created.approved,
      },
      message: created.approved
        ? BLOG_MESSAGES.replyPublished.description
        : BLOG_MESSAGES.commentPending.description,
    };
  });

  router.put('/comments', async (ctx, next) => {
    if (ctx.query.action !== 'like') return next();
    const id = queryId(ctx);
    const likes = await likeComment(db, id, await likerOf(db, ctx.state.session.id, ctx.ip));
    if (likes === null) throw new NotFound('Comment not found');
    ctx.body = { id, likes };
  });
  return router;
}
