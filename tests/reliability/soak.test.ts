import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { type RunningProcess, startProcess, startWebProcess } from '../support/process.ts';
import { createProductRow, validCheckout } from '../support/shop.ts';
import { recordSummary, type SoakSample } from './summary.ts';

/** The issue asks for ten minutes; SOAK_SECONDS shortens it for a quick local run. */
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SAMPLE_EVERY_MS = 10_000;
/**
 * The warm-up is the first fifth of the run (two minutes by default): long enough for V8 to grow
 * its heap to a working size and collect it in full at least once. RSS rises and falls in a saw
 * tooth around such collections, so the level memory is held to is the warm-up's highest sample.
 */
const WARMUP_SECONDS = Math.max(10, Math.round(SOAK_SECONDS / 5));
const POOL_MAX = 10;
const METRICS_TOKEN = 'soak-test-metrics-token';

let database: TestDatabase | undefined;
let web: RunningProcess | undefined;
let worker: RunningProcess | undefined;
afterAll(async () => {
  worker?.child.kill('SIGKILL');
  web?.child.kill('SIGKILL');
  await database?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

async function pool(base: string): Promise<{ used: number; free: number; pending: number }> {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const read = (state: string) =>
    Number(new RegExp(`penstand_db_pool_connections\\{state="${state}"\\} (\\d+)`).exec(text)?.[1]);
  return { used: read('used'), free: read('free'), pending: read('pending') };
}

function header(headers: Record<string, string | string[] | undefined> | undefined, name: string): string {
  const key = Object.keys(headers ?? {}).find((k) => k.toLowerCase() === name);
  return key ? String(headers?.[key]) : '';
}

it(
  `serves mixed reads and checkouts for ${SOAK_SECONDS} s without errors, memory growth or connection leaks`,
  async () => {
    database = await createTestDatabase();
    const { db } = database;
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: String(POOL_MAX),
      SEED_DEMO: 'true',
      CHECKOUT_RATE_LIMIT: '100000',
      METRICS_TOKEN,
      LOG_LEVEL: 'warn',
    };
    const started = await startWebProcess(env);
    web = started;
    const base = started.url;
    worker = startProcess('src/cli/worker.ts', [], env);
    // After the start: the demo is seeded only into a database without posts or products.
    const product = await createProductRow(db, { name: 'Soak mug', price: 900, stock: null });
    const { posts } = await (await fetch(`${base}/api/posts`)).json();
    const pid = web.child.pid ?? 0;

    let ordersPlaced = 0;
    /** Answers other than the expected ones, counted by status and path. */
    const unexpected = new Map<string, number>();
    const note = (status: number, path: string) =>
      unexpected.set(`${status} ${path}`, (unexpected.get(`${status} ${path}`) ?? 0) + 1);
    const json = { 'content-type': 'application/json' };
    const reads = ['/', `/post/${posts[0].slug}`, '/shop', `/product/${product.id}`, '/api/posts'];
    let finish: (result: autocannon.Result) => void = () => {};
    let fail: (error: Error) => void = () => {};
    const finished = new Promise<autocannon.Result>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    const load = autocannon(
      {
        url: base,
        connections: 4,
        // A steady load well within what a busy 2-core machine serves: a soak, not a benchmark.
        overallRate: 60,
        duration: SOAK_SECONDS,
        timeout: 30,
        requests: [
          ...reads.map((path) => ({
            method: 'GET' as const,
            path,
            onResponse: (status: number) => {
              if (status !== 200) note(status, path);
            },
          })),
          {
            method: 'POST',
            path: '/api/cart?action=add',
            headers: json,
            body: JSON.stringify({ productId: product.id, quantity: 1 }),
            onResponse: (status, _body, context, headers) => {
              if (status !== 200 && status !== 201) note(status, '/api/cart');
              (context as { sid?: string }).sid = header(headers, 'x-session-id');
            },
          },
          {
            method: 'POST',
            path: '/api/orders',
            body: JSON.stringify(validCheckout),
            setupRequest: (request, context) => ({
              ...request,
              headers: { ...json, 'x-session-id': (context as { sid?: string }).sid ?? '' },
            }),
            onResponse: (status) => {
              if (status === 201) ordersPlaced++;
              else note(status, '/api/orders');
            },
          },
        ],
      },
      (error, result) => (error ? fail(error) : finish(result)),
    );
    let responses = 0;
    load.on('response', () => {
      responses++;
    });

    const samples: SoakSample[] = [];
    const begun = Date.now();
    let done = false;
    void finished.then(() => {
      done = true;
    });
    while (!done) {
      await Promise.race([sleep(SAMPLE_EVERY_MS - ((Date.now() - begun) % SAMPLE_EVERY_MS)), finished]);
      if (done) break;
      const p = await pool(base);
      const conns = await db.raw(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'penstand%'",
      );
      samples.push({
        seconds: Math.round((Date.now() - begun) / 1000),
        rssMb: await rssMb(pid),
        poolUsed: p.used,
        poolFree: p.free,
        poolPending: p.pending,
        serverConnections: conns.rows[0].n,
        requests: responses,
      });
    }
    const result = await finished;

    // Once the load stops, every connection the requests took is back in the pool.
    let after = await pool(base);
    for (let i = 0; i < 50 && (after.used > 0 || after.pending > 0); i++) {
      await sleep(200);
      after = await pool(base);
    }
    // Every order placed is stored, and the worker has sent (logged) its confirmation.
    const count = async (query: ReturnType<typeof db>) => Number((await query.count({ n: '*' }).first())?.n);
    const stored = await count(db('orders'));
    let confirmed = 0;
    for (let i = 0; i < 600 && confirmed < stored; i++) {
      confirmed = await count(db('order_events').where({ type: 'ConfirmationEmailSent' }));
      if (confirmed < stored) await sleep(200);
    }

    const afterWarmup = samples.filter((s) => s.seconds > WARMUP_SECONDS);
    const warmup = samples.filter((s) => s.seconds <= WARMUP_SECONDS).map((s) => s.rssMb);
    const baseline = warmup.length ? Math.max(...warmup) : undefined;
    const growth = baseline ? Math.max(...afterWarmup.map((s) => s.rssMb)) / baseline - 1 : 0;
    await recordSummary({
      requestsSent: result.requests.total,
      serverErrors: result['5xx'],
      ordersLost: Math.max(0, ordersPlaced - stored),
      mailsLost: Math.max(0, stored - confirmed),
      soakSamples: samples,
    });

    expect(Object.fromEntries(unexpected)).toEqual({});
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(ordersPlaced).toBeGreaterThan(0);
    // Requests still in flight when the load stopped may have placed an order unseen.
    expect(stored).toBeGreaterThanOrEqual(ordersPlaced);
    expect(stored).toBeLessThanOrEqual(ordersPlaced + 4);
    expect(confirmed).toBe(stored);
    // Memory: after the warm-up RSS stays within 20% of the warm-up's peak.
    expect(baseline).toBeDefined();
    expect(afterWarmup.length).toBeGreaterThan(0);
    expect(growth).toBeLessThanOrEqual(0.2);
    // Connections: the pool never outgrows its limit and gives every connection back.
    for (const s of samples) expect(s.poolUsed + s.poolFree).toBeLessThanOrEqual(POOL_MAX);
    expect(after).toMatchObject({ used: 0, pending: 0 });
    expect(web.child.exitCode).toBeNull();
  },
  SOAK_SECONDS * 1000 + 300_000,
);
