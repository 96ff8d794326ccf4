import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { requireAdmin } from '../identity/policy.ts';
import { NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import type { AppServices } from '../server/services.ts';
import { SHOP_MESSAGES } from '../shop/messages.ts';
import { deleteProductAndFiles } from '../shop/product-files.ts';
import { PRODUCT_CATEGORIES, PRODUCT_STATUSES } from '../shop/product-schema.ts';
import {
  createProduct,
  getProduct,
  listFeaturedProducts,
  listProducts,
  parseProductId,
  updateProduct,
} from '../shop/products.ts';
import { readJsonBody } from './http.ts';

const positive = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number from 1 to ${max}` })
    .int(`${name} must be a number from 1 to ${max}`)
    .min(1, `${name} must be a number from 1 to ${max}`)
    .max(max, `${name} must be a number from 1 to ${max}`);

/** A bad query parameter is a 400 naming it, as for posts (empty ones are omitted, SPEC §7). */
export const listQuery = z.object({
  page: positive('page', 100_000).default(1),
  limit: positive('limit', 100).default(12),
  category: z
    .enum(PRODUCT_CATEGORIES, { error: `category must be one of ${PRODUCT_CATEGORIES.join(', ')}` })
    .optional(),
  search: z.string().trim().max(200, 'search must be at most 200 characters').optional(),
  status: z
    .enum([...PRODUCT_STATUSES, 'all'], { error: `status must be ${PRODUCT_STATUSES.join(', ')} or all` })
    .default('active'),
});

/** ?action=featured's limit (SPEC §7: 6 unless asked). */
export const featuredLimit = positive('limit', 24).default(6);

function idOf(value: unknown): number {
  const id = parseProductId(value);
  if (!id) throw new NotFound(SHOP_MESSAGES.productNotFound);
  return id;
}

/**
 * /api/products (SPEC §7). Reads are public and see active products only, unless an admin asks
 * for another status; writes are admin-only. Prices are integer cents.
 */
export function productsRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();

  async function showOne(ctx: Context, rawId: unknown) {
    const product = await getProduct(db, idOf(rawId));
    const isAdmin = ctx.state.session.user?.role === 'admin';
    if (!product || (product.status !== 'active' && !isAdmin))
      throw new NotFound(SHOP_MESSAGES.productNotFound);
    ctx.body = product;
  }

  router.get('/products', async (ctx) => {
    const q = ctx.query;
    if (q.action === 'featured') {
      const limit = parseInput(featuredLimit, q.limit || undefined);
      ctx.body = { products: await listFeaturedProducts(db, limit) };
      return;
    }
    if (q.action === 'categories') {
      ctx.body = { categories: [...PRODUCT_CATEGORIES] };
      return;
    }
    if (q.id !== undefined) return showOne(ctx, q.id);
    const query = parseInput(
      listQuery,
      Object.fromEntries(Object.entries(q).filter(([key, value]) => key !== 'action' && value !== '')),
    );
    // Inactive products are not for sale: only admins list them.
    if (query.status !== 'active') requireAdmin(ctx.state);
    ctx.body = await listProducts(db, query);
  });

  router.get('/products/:id', (ctx) => showOne(ctx, ctx.params.id));

  router.post('/products', async (ctx) => {
    requireAdmin(ctx.state);
    const product = await createProduct(db, await readJsonBody(ctx));
    ctx.status = 201;
    ctx.body = product;
  });

  async function update(ctx: Context, rawId: unknown) {
    requireAdmin(ctx.state);
    const id = idOf(rawId);
    ctx.body = await updateProduct(db, id, await readJsonBody(ctx));
  }
  router.put('/products', (ctx) => update(ctx, ctx.query.id));
  router.put('/products/:id', (ctx) => update(ctx, ctx.params.id));

  async function remove(ctx: Context, rawId: unknown) {
    requireAdmin(ctx.state);
    await deleteProductAndFiles(db, services.privateFiles, idOf(rawId));
    ctx.body = { message: 'Product deleted successfully' };
  }
  router.delete('/products', (ctx) => remove(ctx, ctx.query.id));
  router.delete('/products/:id', (ctx) => remove(ctx, ctx.params.id));

  return router;
}
