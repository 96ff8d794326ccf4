import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { listen } from '../../src/server/http.ts';
import { benchProduct } from './bench-product.ts';
import { databaseCpuMs, openBenchDatabase } from './database.ts';
import { benchApp } from './in-process-app.ts';
import { SHOPPER_CHECKOUT_BODY } from './shopper.ts';
import { resetStatementStats, STATEMENT_SETTINGS, statementReport } from './statements.ts';

/**
 * `npm run bench:orders`: what one guest shopper of the product drop costs the web process, on
 * the benchmark database (npm run bench:data; npm run build first). It counts the SQL statements
 * and transactions of one add to cart and one checkout (`--sql` prints them), then places
 * `--orders` orders, `--concurrency` shoppers at a time, and reports the web process's CPU per
 * order (this thread's: the app's, and the shoppers' HTTP client's, whose share is shown by the
 * same requests to a bare node:http server), and the benchmark PostgreSQL's (its processes' CPU
 * from /proc, at 10 ms resolution). The orders stay; their jobs (confirmation mails) are dropped. The product has unlimited stock, so the runs can be repeated.
 */
const { values } = parseArgs({
  options: {
    sql: { type: 'boolean', default: false },
    orders: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '8' },
    runs: { type: 'string', default: '3' },
    /** Prints PostgreSQL's time per statement and trigger function over the measured runs. */
    statements: { type: 'boolean', default: false },
    /** Writes a CPU profile of the measured runs only (not the start-up) to this file. */
    profile: { type: 'string' },
  },
});

const bench = await openBenchDatabase(values.statements ? STATEMENT_SETTINGS : undefined);
const { productId } = await benchProduct(bench.db, 'Bench orders, unlimited', null, {
  description: 'Counted orders.',
});

// Its orders' jobs are dropped at the end (no worker runs here): they would wait for the next bench's.
const outboxBefore = Number((await bench.db('outbox').max({ id: 'id' }).first())?.id ?? 0);

const { app, runtime } = await benchApp(bench.url, { TRUST_PROXY: 'true' });
const web = await listen(app, '127.0.0.1', 0);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(
  target: string,
  body: string,
  headers: Record<string, string>,
  port = web.port,
): Promise<{ status: number; sid?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: target, method: 'POST', agent, headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, sid: res.headers['x-session-id'] as string, body }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const addBody = JSON.stringify({ productId, quantity: 1 });
let shopper = 0;

/** One new guest shopper: an add to cart from a new address, then the checkout. */
async function order(): Promise<void> {
  const n = ++shopper;
  const address = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  const json = { 'content-type': 'application/json', 'x-forwarded-for': address };
  const added = await post('/api/cart?action=add', addBody, json);
  if (added.status !== 201 || !added.sid) throw new Error(`add to cart: ${added.status}`);
  const placed = await post('/api/orders', SHOPPER_CHECKOUT_BODY, {
    ...json,
    'x-session-id': added.sid,
    'idempotency-key': `bench-${process.pid}-${n}`,
  });
  if (placed.status !== 201) throw new Error(`checkout: ${placed.status} ${placed.body}`);
}

// Counted: the second shopper (the first warms what a process keeps).
// Counted where pg sends them: the rate limiter sends its own, past knex's query event.
let statements: string[] = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text: string };
  statements.push(typeof first === 'string' ? first : first.text);
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;
await order();
const counted = { 'content-type': 'application/json', 'x-forwarded-for': '10.255.0.1' };
const steps: [string, () => Promise<unknown>][] = [];
let sid = '';
steps.push([
  'add to cart',
  async () => (sid = (await post('/api/cart?action=add', addBody, counted)).sid ?? ''),
]);
steps.push([
  'checkout',
  () =>
    post('/api/orders', SHOPPER_CHECKOUT_BODY, {
      ...counted,
      'x-session-id': sid,
      'idempotency-key': `bench-${process.pid}-counted`,
    }),
]);
for (const [step, run] of steps) {
  statements = [];
  await run();
  const control = statements.filter((s) => /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/i.test(s)).length;
  process.stdout.write(
    `${step.padEnd(12)} ${statements.length} statements (${control} of them BEGIN/COMMIT/SAVEPOINT/RELEASE)\n`,
  );
  if (values.sql) for (const sql of statements) process.stdout.write(`    ${sql.slice(0, 240)}\n`);
}
pg.Client.prototype.query = query;

// The same client against a bare node:http server: what a round trip costs this thread anyway.
const bare = http.createServer((_req, res) => {
  res.writeHead(201, { 'x-session-id': 'x'.repeat(43) });
  res.end('{}');
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const barePort = (bare.address() as { port: number }).port;
const N = Number(values.orders);
const C = Number(values.concurrency);
async function measure(one: () => Promise<unknown>) {
  const database = await databaseCpuMs();
  const before = process.threadCpuUsage();
  const started = performance.now();
  let left = N;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (left-- > 0) await one();
    }),
  );
  const cpu = process.threadCpuUsage(before);
  return {
    cpuMs: (cpu.user + cpu.system) / 1000 / N,
    systemMs: cpu.system / 1000 / N,
    databaseMs: ((await databaseCpuMs()) - database) / N,
    seconds: (performance.now() - started) / 1000,
  };
}
const inspector = new Session();
if (values.profile) {
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.start');
}
if (values.statements) await resetStatementStats(bench.db);
for (let run = 1; run <= Number(values.runs); run++) {
  const empty = await measure(async () => {
    await post('/', addBody, counted, barePort);
    await post('/', SHOPPER_CHECKOUT_BODY, counted, barePort);
  });
  const orders = await measure(order);
  process.stdout.write(
    `run ${run}: ${N} orders, ${C} at a time: ${orders.cpuMs.toFixed(2)} ms CPU per order (${orders.systemMs.toFixed(2)} in the kernel), of which ${empty.cpuMs.toFixed(2)} ms two bare round trips cost; PostgreSQL ${orders.databaseMs.toFixed(2)} ms; ${(N / orders.seconds).toFixed(0)} orders/s\n`,
  );
}
if (values.profile) {
  const { profile } = await inspector.post('Profiler.stop');
  await writeFile(values.profile, JSON.stringify(profile));
  inspector.disconnect();
}
if (values.statements) process.stdout.write(await statementReport(bench.db, N * Number(values.runs)));
await bench.db('outbox').where('id', '>', outboxBefore).delete();
agent.destroy();
bare.close();
await web.close();
await runtime.close();
await bench.stop();
