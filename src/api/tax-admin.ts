import Router from '@koa/router';
import type { Context } from 'koa';
import { requireAdmin } from '../identity/policy.ts';
import { NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import type { AppServices } from '../server/services.ts';
import { addTaxRate, deleteTaxRate, listTaxRates, taxRateSchema } from '../shop/tax.ts';
import { TAX_MESSAGES } from '../shop/tax-rules.ts';
import { readJsonBody, SMALL_BODY } from './http.ts';

function taxRateIdOf(ctx: Context): number {
  const raw = ctx.params.id;
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw new NotFound(TAX_MESSAGES.notFound);
  return id;
}

/** /api/admin/tax-rates: the tax rates by country (and category), as Settings → Tax lists them. */
export function taxAdminRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();

  router.get('/admin/tax-rates', async (ctx) => {
    requireAdmin(ctx.state);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { taxRates: await listTaxRates(db) };
  });

  router.post('/admin/tax-rates', async (ctx) => {
    requireAdmin(ctx.state);
    const input = parseInput(taxRateSchema, await readJsonBody(ctx, SMALL_BODY));
    ctx.state.audit = { what: `Tax rate ${input.name} ${input.rate}% for ${input.country} added` };
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = await addTaxRate(db, input);
  });

  router.delete('/admin/tax-rates/:id', async (ctx) => {
    requireAdmin(ctx.state);
    await deleteTaxRate(db, taxRateIdOf(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 204;
  });

  return router;
}
