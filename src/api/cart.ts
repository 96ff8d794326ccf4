import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { parseInput } from '../kernel/parse.ts';
import type { RequestState } from '../server/request-state.ts';
import type { AppServices } from '../server/services.ts';
import {
  addToVisitorCart,
  cartOwnerOf,
  clearCart,
  countCartItems,
  getCart,
  removeCartItem,
  updateCartItem,
} from '../shop/cart.ts';
import { addedMessage, SHOP_MESSAGES } from '../shop/messages.ts';
import { readJsonBody, SMALL_BODY } from './http.ts';

export const addBody = z.object({
  productId: z.coerce
    .number('productId must be a number')
    .int()
    .positive('productId must be a positive integer'),
  /** The variant, for a product with options (left out: 'Choose a size'). */
  variantId: z.coerce
    .number('variantId must be a number')
    .int('variantId must be a positive integer')
    .positive('variantId must be a positive integer')
    .nullable()
    .default(null),
  /** Checked against the product's stock by the cart's quantity rule (readQuantity). */
  quantity: z.unknown().default(1),
});
/** A line's new quantity, checked by the same quantity rule (under 1 removes the line). */
export const updateBody = z.object(
  { quantity: z.unknown().refine((value) => value !== undefined, 'quantity is required') },
  { error: 'quantity is required' },
);

function lineId(ctx: Context): number {
  const raw = String(ctx.query.id ?? ctx.params.id ?? '');
  if (!/^\d{1,9}$/.test(raw)) throw new NotFound('Cart item not found');
  return Number(raw);
}

/** /api/cart (SPEC §7): the visitor's own cart only; amounts in integer cents. */
export function cartRouter(services: AppServices): Router {
  const { db } = services;
  const router = new Router();

  async function show(ctx: Context, itemsOnly: boolean) {
    const view = await getCart(db, cartOwnerOf(ctx.state));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = itemsOnly ? { items: view.cart.items, notices: view.notices } : view;
  }

  router.get('/cart', async (ctx) => {
    if (ctx.query.action === 'count') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { count: await countCartItems(db, cartOwnerOf(ctx.state)) };
      return;
    }
    const action = ctx.query.action;
    if (action !== undefined && action !== 'items') throw new NotFound(`No API endpoint at GET ${ctx.url}`);
    await show(ctx, action === 'items');
  });
  router.get('/cart/items', (ctx) => show(ctx, true));

  async function add(ctx: Context) {
    const parsed = addBody.safeParse(await readJsonBody(ctx, SMALL_BODY));
    if (!parsed.success) throw new Invalid(parsed.error.issues.map((i) => i.message).join('; '));
    const { productId, quantity, variantId } = parsed.data;
    const { line, sessionId, started } = await addToVisitorCart(
      db,
      ctx.state as RequestState,
      productId,
      quantity,
      variantId,
    );
    if (started && sessionId) ctx.set('X-Session-Id', sessionId);
    ctx.status = 201;
    ctx.body = {
      title: SHOP_MESSAGES.addedTitle,
      message: addedMessage(line.added),
      item: { id: line.lineId, productId, variantId, quantity: line.quantity },
    };
  }
  router.post('/cart', async (ctx) => {
    if (ctx.query.action !== 'add') throw new NotFound(`No API endpoint at POST ${ctx.url}`);
    await add(ctx);
  });
  router.post('/cart/add', add);

  router.put('/cart', async (ctx) => {
    const id = lineId(ctx);
    const { quantity } = parseInput(updateBody, await readJsonBody(ctx, SMALL_BODY));
    const result = await updateCartItem(db, cartOwnerOf(ctx.state), id, quantity);
    ctx.body = { id, quantity: result.quantity };
  });

  router.delete('/cart', async (ctx) => {
    if (ctx.query.action === 'clear') {
      await clearCart(db, cartOwnerOf(ctx.state));
      ctx.body = { message: SHOP_MESSAGES.cartCleared };
      return;
    }
    await removeCartItem(db, cartOwnerOf(ctx.state), lineId(ctx));
    ctx.body = { message: SHOP_MESSAGES.itemRemoved };
  });

  return router;
}
