import Router from '@koa/router';
import { createPost, deletePost, updatePost } from '../blog/post-editor.ts';
import { POST_MESSAGES } from '../blog/post-messages.ts';
import { postInputSchema } from '../blog/post-schema.ts';
import { requireAdmin } from '../identity/policy.ts';
import { HttpError } from '../server/middleware.ts';
import type { AppServices } from '../server/services.ts';
import { parseOr400, queryId, readJsonBody } from './http.ts';

/** POST /api/posts, PUT /api/posts?id=, DELETE /api/posts?id= (admins). GET belongs to the blog's router. */
export function postsAdminRouter(services: AppServices): Router {
  const { db, queues } = services;
  const router = new Router();
  router.post('/posts', async (ctx) => {
    const user = requireAdmin(ctx.state);
    const input = parseOr400(postInputSchema, await readJsonBody(ctx));
    const post = await createPost(db, queues, input, user.id);
    ctx.status = 201;
    ctx.body = { message: POST_MESSAGES.created, post };
  });
  router.put('/posts', async (ctx) => {
    requireAdmin(ctx.state);
    const id = queryId(ctx);
    const input = parseOr400(postInputSchema, await readJsonBody(ctx));
    const post = await updatePost(db, queues, id, input);
    if (!post) throw new HttpError(404, POST_MESSAGES.notFound);
    ctx.body = { message: POST_MESSAGES.updated, post };
  });
  router.delete('/posts', async (ctx) => {
    requireAdmin(ctx.state);
    if (!(await deletePost(db, queryId(ctx)))) throw new HttpError(404, POST_MESSAGES.notFound);
    ctx.body = { message: POST_MESSAGES.deleted };
  });
  return router;
}
