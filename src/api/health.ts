import Router from '@koa/router';
import type { AppServices } from '../server/services.ts';

const CHECK_TIMEOUT_MS = 1_500;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref(),
    ),
  ]);
}

async function check(fn: () => Promise<unknown>): Promise<{ status: 'up' | 'down'; error?: string }> {
  try {
    await withTimeout(fn(), CHECK_TIMEOUT_MS);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', error: (error as Error).message || 'unreachable' };
  }
}

/** GET /api/health: 200 when the database and the queue answer, 503 otherwise (within 2 s). */
export function healthRouter(services: AppServices): Router {
  const router = new Router();
  router.get('/health', async (ctx) => {
    const [database, queue] = await Promise.all([
      check(() => services.db.raw('SELECT 1')),
      check(() => services.queues.counts()),
    ]);
    const ok = database.status === 'up' && queue.status === 'up';
    ctx.status = ok ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      status: ok ? 'ok' : 'unavailable',
      database,
      queue: { ...queue, backend: services.queues.connection.kind },
    };
  });
  return router;
}
