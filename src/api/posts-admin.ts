import Router from '@koa/router';
import { createPost, deletePost, restoreRevision, updatePost } from '../blog/post-editor.ts';
import { POST_MESSAGES } from '../blog/post-messages.ts';
import { autosavePost, listRevisions } from '../blog/post-revisions.ts';
import { baseVersionSchema, postDraftSchema, postInputSchema } from '../blog/post-schema.ts';
import { createPreviewLink, revokePreviewLink } from '../blog/preview-links.ts';
import { requireAdmin } from '../identity/policy.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import type { AppServices } from '../server/services.ts';
import { queryId, readJsonBody } from './http.ts';

/** A post or revision id from the path; anything else names nothing there is. */
function pathId(raw: string | undefined, message: string): number {
  const id = raw && /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw new NotFound(message);
  return id;
}

/** The base version a body names, if it names one (older API clients send none). */
function optionalBaseVersion(body: unknown): number | undefined {
  const raw = body && typeof body === 'object' ? (body as { baseVersion?: unknown }).baseVersion : undefined;
  return raw === undefined || raw === null ? undefined : parseInput(baseVersionSchema, raw);
}

export const autosaveBody = postDraftSchema.extend({ baseVersion: baseVersionSchema });

/**
 * POST /api/posts, PUT /api/posts?id=, DELETE /api/posts?id= (admins), and the editor's
 * autosave, revisions, restore and preview link under /api/posts/:id. GET belongs to the blog's router.
 */
export function postsAdminRouter(services: AppServices): Router {
  const { db, queues } = services;
  const router = new Router();
  router.post('/posts', async (ctx) => {
    const user = requireAdmin(ctx.state);
    const input = parseInput(postInputSchema, await readJsonBody(ctx));
    const post = await createPost(db, queues, input, user.id);
    ctx.status = 201;
    ctx.body = { message: POST_MESSAGES.created, post };
  });
  router.put('/posts', async (ctx) => {
    const user = requireAdmin(ctx.state);
    const id = queryId(ctx);
    const body = await readJsonBody(ctx);
    const input = parseInput(postInputSchema, body);
    const post = await updatePost(db, queues, id, input, {
      authorId: user.id,
      baseVersion: optionalBaseVersion(body),
    });
    if (!post) throw new NotFound(POST_MESSAGES.notFound);
    ctx.body = { message: POST_MESSAGES.updated, post };
  });
  router.delete('/posts', async (ctx) => {
    requireAdmin(ctx.state);
    if (!(await deletePost(db, queryId(ctx)))) throw new NotFound(POST_MESSAGES.notFound);
    ctx.body = { message: POST_MESSAGES.deleted };
  });

  /** The editor's draft copy: the post itself (live or not) is unchanged until an explicit save. */
  router.put('/posts/:id', async (ctx) => {
    const user = requireAdmin(ctx.state);
    if (ctx.query.action !== 'autosave') throw new Invalid('action must be autosave');
    const id = pathId(ctx.params.id, POST_MESSAGES.notFound);
    const { baseVersion, ...draft } = parseInput(autosaveBody, await readJsonBody(ctx));
    const saved = await autosavePost(db, id, baseVersion, draft, user.id);
    if (!saved) throw new NotFound(POST_MESSAGES.notFound);
    ctx.state.pagesUnchanged = true;
    ctx.body = saved;
  });

  router.get('/posts/:id/revisions', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'private, no-store');
    const revisions = await listRevisions(db, pathId(ctx.params.id, POST_MESSAGES.notFound));
    if (!revisions) throw new NotFound(POST_MESSAGES.notFound);
    ctx.body = { revisions };
  });

  router.post('/posts/:id/revisions/:revisionId', async (ctx) => {
    const user = requireAdmin(ctx.state);
    if (ctx.query.action !== 'restore') throw new Invalid('action must be restore');
    const id = pathId(ctx.params.id, POST_MESSAGES.notFound);
    const revisionId = pathId(ctx.params.revisionId, POST_MESSAGES.revisionNotFound);
    const body = await readJsonBody(ctx);
    const post = await restoreRevision(db, queues, id, revisionId, {
      authorId: user.id,
      baseVersion: optionalBaseVersion(body),
    });
    ctx.body = { message: POST_MESSAGES.restored, post };
  });

  /** A secret link to the post as saved, for someone without an account; a new one replaces the old. */
  router.post('/posts/:id/preview-link', async (ctx) => {
    const user = requireAdmin(ctx.state);
    const id = pathId(ctx.params.id, POST_MESSAGES.notFound);
    await readJsonBody(ctx); // no fields; read so a body never lingers on the connection
    const link = await createPreviewLink(db, services.publicUrl, id, user.id);
    if (!link) throw new NotFound(POST_MESSAGES.notFound);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.state.pagesUnchanged = true;
    ctx.status = 201;
    ctx.body = link;
  });
  router.delete('/posts/:id/preview-link', async (ctx) => {
    requireAdmin(ctx.state);
    const id = pathId(ctx.params.id, POST_MESSAGES.notFound);
    if (!(await revokePreviewLink(db, id))) throw new NotFound(POST_MESSAGES.previewLinkNotFound);
    ctx.state.pagesUnchanged = true;
    ctx.body = { message: POST_MESSAGES.previewLinkRevoked };
  });
  return router;
}
