import Router from '@koa/router';
import type { AppServices } from '../server/services.ts';
import { cartRouter } from './cart.ts';
import { commentsRouter } from './comments.ts';
import { healthRouter } from './health.ts';
import { newsletterRouter } from './newsletter.ts';
import { ordersRouter } from './orders.ts';
import { postsRouter } from './posts.ts';
import { productsRouter } from './products.ts';
import { settingsRouter } from './settings.ts';
import { usersRouter } from './users.ts';

/** Every /api resource. Each router parses its input with zod, calls a service and shapes JSON. */
export function apiRouter(services: AppServices): Router {
  const api = new Router({ prefix: '/api' });
  for (const router of [
    healthRouter(services),
    usersRouter(services),
    postsRouter(services),
    commentsRouter(services),
    settingsRouter(services),
    newsletterRouter(services),
    productsRouter(services),
    cartRouter(services),
    ordersRouter(services),
  ]) {
    api.use(router.routes(), router.allowedMethods());
  }
  api.all('/{*rest}', (ctx) => {
    ctx.status = 404;
    ctx.body = { message: `No API endpoint at ${ctx.method} ${ctx.path}` };
  });
  return api;
}
