import Router from '@koa/router';
import type { Context } from 'koa';
import { checkout, parseCheckout } from '../checkout/checkout.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../checkout/place-order.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { listMyOrders } from '../orders/lists.ts';
import type { AppServices } from '../server/services.ts';
import { cartOwnerOf } from '../shop/cart.ts';
import { readJsonBody, SMALL_BODY } from './http.ts';

/** /api/orders (SPEC §7): guest checkout from the visitor's cart, and the visitor's own orders. */
export function ordersRouter(services: AppServices): Router {
  const router = new Router();

  async function create(ctx: Context) {
    const body = await readJsonBody(ctx, SMALL_BODY);
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new Invalid('Request body must be a JSON object.');
    const parsed = await parseCheckout(services, ctx.state, body);
    if (!parsed.ok) {
      const { errors } = parsed;
      ctx.status = 400;
      ctx.body = { message: Object.values(errors).join('; '), errors };
      return;
    }
    const key = ctx.get('idempotency-key') || null;
    if (key !== null && !IDEMPOTENCY_KEY_PATTERN.test(key))
      throw new Invalid('Idempotency-Key must be 8 to 100 letters, digits, "-" or "_".');
    const { order, created, next } = await checkout(services, ctx.state, parsed, key);
    ctx.status = created ? 201 : 200;
    ctx.body = { ...order, ...next };
  }

  router.post('/orders', async (ctx) => {
    if (ctx.query.action !== undefined && ctx.query.action !== 'create-checkout')
      throw new NotFound(`No API endpoint at POST ${ctx.url}`);
    await create(ctx);
  });

  router.get('/orders', async (ctx) => {
    if (ctx.query.action !== 'my-orders') throw new NotFound(`No API endpoint at GET ${ctx.url}`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { orders: await listMyOrders(services.db, cartOwnerOf(ctx.state)) };
  });

  return router;
}
