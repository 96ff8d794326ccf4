import path from 'node:path';
import Koa from 'koa';
import type { ServerBuild } from 'react-router';
import { apiRouter } from '../api/index.ts';
import { RENAMED_DEMO_IMAGES } from '../demo/renamed-images.ts';
import { countPageViews } from '../server/analytics-collect.ts';
import { auditLog } from '../server/audit.ts';
import { csrfProtection } from '../server/csrf.ts';
import { serveDownloads } from '../server/downloads.ts';
import { serveStoredAnswers } from '../server/fast-path.ts';
import { metricsEndpoint, metricsMiddleware } from '../server/metrics.ts';
import {
  compression,
  errorHandler,
  failFastWhenDatabaseDown,
  privateForSessions,
  refuseNulInUrl,
  requestContext,
  securityHeaderList,
  securityHeaders,
  warnOnUntrustedProxy,
} from '../server/middleware.ts';
import { invalidateOnAdminWrites, pageCacheMiddleware, storedPageSender } from '../server/page-cache.ts';
import type { AppServices } from '../server/services.ts';
import { sessionMiddleware } from '../server/session-middleware.ts';
import { redirectRenamed, serveStatic, serveUploads } from '../server/static.ts';
import { reactRouterMiddleware } from './react-router-adapter.ts';
import { sessionPageTemplates } from './session-templates.ts';

export type PageHandler =
  | { kind: 'build'; buildDir: string; build: ServerBuild }
  | { kind: 'dev'; middleware: Koa.Middleware; getBuild: () => Promise<ServerBuild> };

/** The Koa app: middleware, static files, /api, and React Router for every other path. */
export function createApp(services: AppServices, pages: PageHandler): Koa {
  const { config } = services;
  const app = new Koa();
  app.proxy = config.trustProxy;
  app.silent = true; // errors are logged by errorHandler with the request id
  const sendPage = storedPageSender(services.pageCache, (sources) => securityHeaderList(config, sources));
  // Stored pages and API answers for anonymous readers, before the middleware they would not need.
  app.use(serveStoredAnswers(services, sendPage));
  app.use(requestContext(services.log, config.trustProxy));
  app.use(warnOnUntrustedProxy(config, services.log));
  app.use(metricsMiddleware(services.metrics));
  app.use(errorHandler(config, () => services.dbAvailability.markDown()));
  app.use(refuseNulInUrl());
  app.use(metricsEndpoint(services.metrics, config.metricsToken));
  app.use(securityHeaders(config));
  app.use(compression());
  // Static files first: they need no session and no database.
  app.use(redirectRenamed(RENAMED_DEMO_IMAGES));
  app.use(serveUploads(services.uploads));
  if (pages.kind === 'build') {
    app.use(serveStatic(path.join(pages.buildDir, 'client'), { immutablePrefix: '/assets/' }));
  } else {
    app.use(pages.middleware);
  }
  // Outside the page cache, so stored pages count too (those sent by serveStoredAnswers count there).
  app.use(countPageViews(services));
  // Misses: a page rendered for anonymous readers is stored, and its burst of readers waits for it.
  app.use(pageCacheMiddleware(services.pageCache, sendPage));
  app.use(failFastWhenDatabaseDown(() => services.dbAvailability.isDown));
  // Download links need no session: the token is the permission.
  app.use(serveDownloads(services));
  app.use(sessionMiddleware(services));
  app.use(privateForSessions());
  app.use(csrfProtection());
  app.use(auditLog(services));
  app.use(invalidateOnAdminWrites(services.pageCache));
  const api = apiRouter(services);
  app.use(api.routes());
  const getBuild = pages.kind === 'build' ? async () => pages.build : pages.getBuild;
  app.use(sessionPageTemplates(services, getBuild));
  app.use(reactRouterMiddleware(services, getBuild, pages.kind === 'build' ? 'production' : 'development'));
  return app;
}
