import path from 'node:path';
import Koa from 'koa';
import type { ServerBuild } from 'react-router';
import { apiRouter } from '../api/index.ts';
import { compression, errorHandler, requestContext, securityHeaders } from './middleware.ts';
import { reactRouterMiddleware } from './react-router-adapter.ts';
import type { AppServices } from './services.ts';
import { serveStatic } from './static.ts';

export type PageHandler =
  | { kind: 'build'; buildDir: string; build: ServerBuild }
  | { kind: 'dev'; middleware: Koa.Middleware; getBuild: () => Promise<ServerBuild> };

/** The Koa app: middleware, /api, static files, and React Router for every other path. */
export function createApp(services: AppServices, pages: PageHandler): Koa {
  const { config } = services;
  const app = new Koa();
  app.proxy = config.trustProxy;
  app.silent = true; // errors are logged by errorHandler with the request id
  app.use(requestContext(services.log, config.trustProxy));
  app.use(errorHandler(config));
  app.use(securityHeaders(config));
  app.use(compression());
  app.use(serveStatic(config.uploadsDir, { prefix: '/uploads/', maxAge: 31536000 }));
  const api = apiRouter(services);
  app.use(api.routes());
  app.use(api.allowedMethods());
  if (pages.kind === 'build') {
    const clientDir = path.join(pages.buildDir, 'client');
    app.use(serveStatic(clientDir, { immutablePrefix: '/assets/' }));
    const build = pages.build;
    app.use(reactRouterMiddleware(services, async () => build, 'production'));
  } else {
    app.use(pages.middleware);
    app.use(reactRouterMiddleware(services, pages.getBuild, 'development'));
  }
  return app;
}
