import Router from '@koa/router';
import { z } from 'zod';
import { accessKey, FULL_ACCESS } from '../blog/paywall.ts';
import { getPost, listPosts, postCategories, postTags } from '../blog/posts.ts';
import { readerAccess } from '../identity/membership.ts';
import { requireAdmin } from '../identity/policy.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import type { AppServices } from '../server/services.ts';

const id = z.coerce
  .number({ error: 'id must be a positive integer' })
  .int()
  .positive('id must be a positive integer')
  .max(2 ** 31 - 1, 'id must be a positive integer');

export const listQuery = z.object({
  status: z
    .enum(['published', 'draft', 'scheduled', 'all'], {
      error: 'status must be published, draft, scheduled or all',
    })
    .optional(),
  category: z.string().trim().max(50, 'category is too long').optional(),
  search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
  tag: z.string().trim().max(50, 'tag is too long').optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number from 1 to 100' })
    .int()
    .min(1, 'limit must be a number from 1 to 100')
    .max(100, 'limit must be a number from 1 to 100')
    .optional(),
  page: z.coerce
    .number({ error: 'page must be a positive integer' })
    .int()
    .min(1, 'page must be a positive integer')
    .max(100_000, 'page is too large')
    .optional(),
  id: id.optional(),
  slug: z.string().trim().min(1).max(200, 'slug is too long').optional(),
});

/** Reads the query, refusing repeated parameters: ?page=1&page=2 has no single meaning. */
function singleValued(
  query: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw new Invalid(`Query parameter ${key} may appear only once`);
    out[key] = value === '' ? undefined : value;
  }
  return out;
}

/** GET /api/posts (SPEC §7): lists, one post by id or slug, categories and tags. Published only unless admin. */
export function postsRouter(services: AppServices): Router {
  const { db, jsonCache } = services;
  const router = new Router();
  router.get('/posts', async (ctx, next) => {
    const query = singleValued(ctx.query);
    const { action, ...rest } = query;
    if (action === 'categories') {
      await jsonCache.respond(ctx, 'posts:categories', async () => ({
        categories: await postCategories(db),
      }));
      return;
    }
    if (action === 'tags') {
      await jsonCache.respond(ctx, 'posts:tags', async () => ({ tags: await postTags(db) }));
      return;
    }
    if (action !== undefined) return next();
    const params = parseInput(listQuery, rest);
    // An admin who has yet to set up a required second factor reads what everyone reads.
    const isAdmin = ctx.state.session.user?.role === 'admin' && !ctx.state.session.twoFactorSetupDue;
    if (params.status && params.status !== 'published')
      requireAdmin(ctx.state, 'Only admins can list unpublished posts.');
    if (params.id || params.slug) {
      const by = params.id ? { id: params.id } : { slug: params.slug ?? '' };
      const reader = isAdmin ? FULL_ACCESS : readerAccess(ctx.state.session.user);
      const find = async () => {
        const post = await getPost(db, by, { includeUnpublished: isAdmin, reader });
        if (!post) throw new NotFound('Post not found');
        return { post };
      };
      if (isAdmin) ctx.body = await find();
      // A gated post's body depends on the reader's access: the key carries it.
      else await jsonCache.respond(ctx, `posts:one:${accessKey(reader)}:${JSON.stringify(by)}`, find);
      return;
    }
    const filter = { ...params, status: params.status ?? 'published' };
    if (isAdmin) {
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = await listPosts(db, filter);
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=30');
    // Every reader but an admin gets the same answer for the same query (published posts only).
    await jsonCache.respond(ctx, `posts:list:${JSON.stringify(filter, Object.keys(filter).sort())}`, () =>
      listPosts(db, filter),
    );
  });
  return router;
}
