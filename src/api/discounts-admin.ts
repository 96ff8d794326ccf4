import Router from '@koa/router';
import type { Context } from 'koa';
import { requireAdmin } from '../identity/policy.ts';
import { NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import type { AppServices } from '../server/services.ts';
import { DISCOUNT_MESSAGES, discountSchema } from '../shop/discount-schema.ts';
import {
  createDiscount,
  deleteDiscount,
  getDiscount,
  listDiscounts,
  updateDiscount,
} from '../shop/discounts.ts';
import { objectBody } from './http.ts';

function discountIdOf(ctx: Context): number {
  const raw = ctx.params.id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw new NotFound(DISCOUNT_MESSAGES.notFound);
  return id;
}

/** /api/admin/discounts: discount codes with their uses and revenue; PATCH {active: false} deactivates. */
export function discountsAdminRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();

  router.get('/admin/discounts', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { discounts: await listDiscounts(db) };
  });

  router.post('/admin/discounts', async (ctx) => {
    requireAdmin(ctx.state);
    const input = parseInput(discountSchema, await objectBody(ctx));
    ctx.state.audit = { what: `Discount code “${input.code}” created` };
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = await createDiscount(db, input);
  });

  router.get('/admin/discounts/:id', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getDiscount(db, discountIdOf(ctx));
  });

  router.patch('/admin/discounts/:id', async (ctx) => {
    requireAdmin(ctx.state);
    const id = discountIdOf(ctx);
    const patch = await objectBody(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await updateDiscount(db, id, patch);
  });

  router.delete('/admin/discounts/:id', async (ctx) => {
    requireAdmin(ctx.state);
    await deleteDiscount(db, discountIdOf(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 204;
  });

  return router;
}
