import Router from '@koa/router';
import type { AppServices } from '../server/services.ts';
import { adminRouter } from './admin.ts';
import { analyticsAdminRouter } from './analytics-admin.ts';
import { bookmarksAdminRouter } from './bookmarks-admin.ts';
import { cartRouter } from './cart.ts';
import { commentsRouter } from './comments.ts';
import { commentsAdminRouter } from './comments-admin.ts';
import { discountsAdminRouter } from './discounts-admin.ts';
import { healthRouter } from './health.ts';
import { importAdminRouter } from './import-admin.ts';
import { membersRouter } from './members.ts';
import { newsletterRouter } from './newsletter.ts';
import { newsletterAdminRouter } from './newsletter-admin.ts';
import { openApiRouter } from './openapi.ts';
import { ordersRouter } from './orders.ts';
import { ordersAdminRouter } from './orders-admin.ts';
import { paymentsRouter } from './payments.ts';
import { postsRouter } from './posts.ts';
import { postsAdminRouter } from './posts-admin.ts';
import { productFilesAdminRouter } from './product-files-admin.ts';
import { productsRouter } from './products.ts';
import { settingsRouter } from './settings.ts';
import { settingsAdminRouter } from './settings-admin.ts';
import { taxAdminRouter } from './tax-admin.ts';
import { uploadsRouter } from './uploads.ts';
import { usersRouter } from './users.ts';

/** Every /api resource. Each router parses its input with zod, calls a service and shapes JSON. */
export function apiRouter(services: AppServices): Router {
  const api = new Router({ prefix: '/api' });
  // Admin routers that share a path with a public one come first and pass on (next()) what is not theirs.
  for (const router of [
    openApiRouter(),
    healthRouter(services),
    usersRouter(services),
    commentsAdminRouter(services),
    newsletterAdminRouter(services),
    postsAdminRouter(services),
    settingsAdminRouter(services),
    ordersAdminRouter(services),
    discountsAdminRouter(services),
    taxAdminRouter(services),
    productFilesAdminRouter(services),
    importAdminRouter(services),
    bookmarksAdminRouter(services),
    adminRouter(services),
    analyticsAdminRouter(services),
    paymentsRouter(services),
    membersRouter(services),
    uploadsRouter(services),
    postsRouter(services),
    commentsRouter(services),
    settingsRouter(services),
    newsletterRouter(services),
    productsRouter(services),
    cartRouter(services),
    ordersRouter(services),
  ]) {
    api.use(router.routes());
  }
  const endpoints = api.stack.filter((layer) => !String(layer.path).includes('{*'));
  // What no endpoint answered. A path that exists names its methods (Allow): OPTIONS gets them,
  // another method a 405. (The router's allowedMethods would count this catch-all's every method.)
  api.all('/{*rest}', (ctx) => {
    const methods = new Set(endpoints.filter((l) => l.match(ctx.path)).flatMap((l) => l.methods));
    if (methods.size) {
      ctx.set('Allow', [...methods, 'OPTIONS'].join(', '));
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        return;
      }
      ctx.status = 405;
      ctx.body = { message: `${ctx.method} is not allowed at ${ctx.path}` };
      return;
    }
    ctx.status = 404;
    ctx.body = { message: `No API endpoint at ${ctx.method} ${ctx.path}` };
  });
  return api;
}
