import type { Middleware } from 'koa';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/knex.ts';
import type { QueueName } from '../jobs/names.ts';
import type { Queues } from '../jobs/queues.ts';

const QUEUES: QueueName[] = ['mail', 'views', 'maintenance', 'media'];

/** Prometheus metrics of one process, in a registry of its own. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'penstand_http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'penstand_http_request_duration_seconds',
    help: 'HTTP request duration until the response is finished',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly ssrShell = new Histogram({
    name: 'penstand_ssr_render_seconds',
    help: 'Time for React Router to produce the response head (loaders and the streamed shell)',
    labelNames: ['route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly jobDuration = new Histogram({
    name: 'penstand_job_duration_seconds',
    help: 'Background job processing time by queue',
    labelNames: ['queue'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30],
    registers: [this.registry],
  });
  readonly jobFailures = new Counter({
    name: 'penstand_job_failures_total',
    help: 'Failed job attempts by queue',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  readonly ordersPlaced = new Counter({
    name: 'penstand_orders_placed_total',
    help: 'Orders placed',
    registers: [this.registry],
  });
  readonly mailsSent = new Counter({
    name: 'penstand_mails_sent_total',
    help: 'Mails handed to SMTP (or to the log when no SMTP is configured)',
    registers: [this.registry],
  });

  /** Label sets seen, kept: no label object is made per request. */
  private readonly requestLabels = new Map<string, { method: string; route: string; status: string }>();

  /** Counts and times one HTTP request. */
  countRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let labels = this.requestLabels.get(key);
    if (!labels) {
      labels = { method, route, status: String(status) };
      this.requestLabels.set(key, labels);
    }
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /** Pool and queue gauges read their values when scraped. */
  watch(db: Db, queues: Queues): void {
    const pool = () =>
      (db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
    new Gauge({
      name: 'penstand_db_pool_connections',
      help: 'Database pool connections by state',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const p = pool();
        this.set({ state: 'used' }, p?.numUsed() ?? 0);
        this.set({ state: 'free' }, p?.numFree() ?? 0);
        this.set({ state: 'pending' }, p?.numPendingAcquires() ?? 0);
      },
    });
    new Gauge({
      name: 'penstand_queue_jobs',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        for (const name of QUEUES) {
          const counts = await queues
            .queue(name)
            .getJobCounts('waiting', 'active', 'delayed', 'failed')
            .catch(() => null);
          if (!counts) continue;
          for (const [state, n] of Object.entries(counts)) this.set({ queue: name, state }, n);
        }
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'penstand_' });
  }
}

/** Counts and times every request, labelled by route pattern (never by raw path). */
export function metricsMiddleware(metrics: Metrics): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const record = () => {
        const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? ctx.state.routePattern ?? 'other';
        metrics.countRequest(ctx.method, String(route), ctx.status, (performance.now() - started) / 1000);
      };
      if (ctx.res.writableFinished || ctx.respond === false) record();
      else ctx.res.once('close', record);
    }
  };
}

/** GET /metrics in Prometheus text format; 401 without the METRICS_TOKEN bearer, 404 when unset. */
export function metricsEndpoint(metrics: Metrics, token: string | undefined): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics') return next();
    if (!token) return next();
    if (ctx.get('authorization') !== `Bearer ${token}`) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.body = { message: 'A valid metrics token is required.' };
      return;
    }
    ctx.set('Content-Type', metrics.registry.contentType);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await metrics.registry.metrics();
  };
}
