import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import type { ServerBuild } from 'react-router';
import { createServer as createViteServer, isRunnableDevEnvironment } from 'vite';
import { startWorkers } from '../../workers/index.ts';
import { seedDemoContent } from '../demo/seed.ts';
import { bootstrapAdmin } from '../identity/admin.ts';
import { loadConfigOrExit, onShutdown, processLogger } from '../server/boot.ts';
import { listen } from '../server/http.ts';
import { startRuntime } from '../server/runtime.ts';
import { createApp } from './app.ts';

/** `npm run dev`: Vite in middleware mode inside our own Koa server, with hot reload. */
const config = { ...loadConfigOrExit(), env: 'development' as const, isProduction: false };
const log = processLogger(config);
const runtime = await startRuntime(config, log, { role: 'site' });
const admin = await bootstrapAdmin(runtime.services.db, config);
if (config.seedDemo) await seedDemoContent(runtime.services.db);
if (admin?.generated) process.stdout.write(`\n  Admin: ${admin.email} / ${admin.password}\n\n`);

const vite = await createViteServer({ appType: 'custom', server: { middlewareMode: true } });

// koa-connect can hang when Vite answers by itself; this resolves on the response's finish.
const viteMiddleware: Middleware = (ctx, next) =>
  new Promise<void>((resolve, reject) => {
    const res = ctx.res as ServerResponse;
    const onFinish = () => resolve();
    res.once('finish', onFinish);
    vite.middlewares(ctx.req as IncomingMessage, res, (err?: unknown) => {
      res.off('finish', onFinish);
      if (err) reject(err);
      else next().then(resolve, reject);
    });
  }).then(() => {
    if (ctx.res.writableEnded) ctx.respond = false;
  });

const ssr = vite.environments.ssr;
if (!isRunnableDevEnvironment(ssr)) throw new Error('Vite SSR environment is not runnable in this process');
const getBuild = () => ssr.runner.import('virtual:react-router/server-build') as Promise<ServerBuild>;

const app = createApp(runtime.services, { kind: 'dev', middleware: viteMiddleware, getBuild });
const web = await listen(app, config.host, config.port);
const workers = startWorkers(runtime.services);
log.info({ url: runtime.services.publicUrl }, 'Penstand dev server is listening');

onShutdown(log, async () => {
  await web.close();
  await vite.close();
  await workers.close();
  await runtime.close();
});
