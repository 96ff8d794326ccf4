import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { lastDays } from '../../src/analytics/report.ts';
import { hashPassword } from '../../src/identity/passwords.ts';
import { createSession, SESSION_COOKIE } from '../../src/identity/sessions.ts';
import { freePort } from '../free-port.ts';
import { startWebCommand } from '../start-web-command.ts';
import { type BenchProduct, benchProduct, setStock, stockOf, UNLIMITED_SQL } from './bench-product.ts';
import { BENCH_DATA_DIR, databaseCpu, openBenchDatabase } from './database.ts';
import { SHOPPER_CHECKOUT_BODY } from './shopper.ts';
import { resetStatementStats, STATEMENT_SETTINGS, statementReport } from './statements.ts';

/**
 * `npm run bench`: the production build against the benchmark database (npm run bench:data), as
 * deployed (a web process and a worker process), driven by autocannon, beside a bare node:http
 * server as this machine's ceiling. Records the web process's peak RSS per target.
 */
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    /** The limited product's stock in the product drop (a smaller one for a quick run). */
    'drop-stock': { type: 'string', default: '5000' },
    /** Run only the targets whose name contains this (repeatable): `--only 'signed in' --only drop`. */
    only: { type: 'string', multiple: true },
    /**
     * Run the selected targets this many times over, one after the other (A B A B …): on a shared
     * machine, pairs measured in alternation compare better than one of each.
     */
    rounds: { type: 'string', default: '1' },
    /**
     * Run the two product drops this many times, the limited one first in odd rounds and second in
     * even ones (A B B A …): a drop right after the page targets runs on a busier machine.
     */
    'drop-rounds': { type: 'string', default: '2' },
    /** After each product drop, PostgreSQL's time per statement and trigger function, per order. */
    statements: { type: 'boolean', default: false },
  },
});
/** Whether a target (or drop) was asked for: all when no --only is given. */
const selected = (t: { name: string }) => !values.only?.length || values.only.some((o) => t.name.includes(o));
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Math.max(1, Number(values.rounds));
const DROP_ROUNDS = Math.max(1, Number(values['drop-rounds']));
const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

type Target = {
  name: string;
  path: string;
  requests?: autocannon.Request[];
  /** Run before the target; what it returns, after it. */
  setup?: () => Promise<() => Promise<void>>;
};
type Row = {
  name: string;
  path: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Of the non-2xx, the 429s: requests a rate limit refused, shown apart from failures. */
  rateLimited: number;
  ratioOfCeiling: number;
  /** The ceiling measured just before this target. */
  ceilingRps: number;
  /** The web process's peak resident memory during this target's run (MB). */
  webRssMb: number;
  /**
   * The web process's CPU time per request (µs, user + system): unlike req/s it hardly moves
   * when other work shares the machine, so A/B rows (counting on and off) compare by it.
   */
  webCpuUs: number;
};

async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** A process's CPU time so far (user + system), in µs, from /proc (clock ticks of 10 ms). */
function cpuUs(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/stat`, 'utf8').then(
    (stat) => {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10_000;
    },
    () => 0,
  );
}

function rssMb(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then(
    (status) => Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024,
    () => 0,
  );
}

async function cannon(url: string, target: Target, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'user-agent': BROWSER_UA, 'accept-encoding': 'gzip' },
    requests: target.requests ?? [{ method: 'GET', path: target.path }],
  });
}

/** Gzip bytes of the scripts (inline ones too) and stylesheets a page makes the browser load first. */
async function firstLoadBytes(base: string, pagePath: string): Promise<{ js: number; css: number }> {
  const html = await (await fetch(`${base}${pagePath}`, { headers: { 'user-agent': BROWSER_UA } })).text();
  const js = new Set(
    [...html.matchAll(/<(?:link rel="modulepreload"|script)[^>]*(?:href|src)="(\/assets\/[^"]+\.js)"/g)].map(
      (m) => m[1],
    ),
  );
  for (const m of html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)|from "(\/assets\/[^"]+\.js)"/g))
    js.add(m[1] ?? m[2]);
  const css = new Set(
    [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1]),
  );
  const size = async (files: Set<string>) => {
    let total = 0;
    for (const file of files)
      total += gzipSync(Buffer.from(await (await fetch(`${base}${file}`)).arrayBuffer())).length;
    return total;
  };
  // Inline scripts count too (theme, hydration data, a plain page's script); JSON-LD is not code.
  const inline = [
    ...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g),
  ]
    .map((m) => m[1])
    .join('');
  return { js: (await size(js)) + gzipSync(inline).length, css: await size(css) };
}

function startCeilingServer(port: number): ChildProcess {
  const script = `
    const page = '<!doctype html><html><head><title>x</title></head><body>' + 'x'.repeat(20 * 1024) + '</body></html>';
    require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(page); })
      .listen(${port}, '127.0.0.1');`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

const root = path.resolve('.');
if (spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0)
  process.exit(1);

const bench = await openBenchDatabase(values.statements ? STATEMENT_SETTINGS : undefined);
const samplePost = await bench.db('posts').where({ status: 'published' }).orderBy('id').first('slug');
const product = await bench.db('products').whereRaw(UNLIMITED_SQL).orderBy('id').first('id');
const anyProduct = await bench.db('products').where({ status: 'active' }).orderBy('id').first('id');
const postCount = (await bench.db('posts').count({ n: '*' }).first())?.n;
// The analytics API is for admins: the bench author's session, as an API client sends it.
const author = await bench.db('users').where({ email: 'bench-author@penstand.local' }).first('id');
const adminSid = author ? await createSession(bench.db, author.id) : '';
// A signed-in reader (not an admin): their session cookie takes every page past the page cache.
let reader = await bench.db('users').where({ email: 'bench-reader@penstand.local' }).first('id');
if (!reader) {
  [reader] = await bench
    .db('users')
    .insert({
      email: 'bench-reader@penstand.local',
      username: 'bench_reader',
      password_hash: await hashPassword('Bench-passw0rd!'),
      email_verified: true,
      first_name: 'Bench',
      last_name: 'Reader',
    })
    .returning('id');
}
const readerCookie = `${SESSION_COOKIE}=${await createSession(bench.db, reader.id)}`;
// The product drop's two products, alike but for the stock: each sells one variant (Size: M).
const DROP_STOCK = Number(values['drop-stock']);
const dropLimited = await benchProduct(bench.db, 'Bench drop, limited', DROP_STOCK, { variant: true });
const dropUnlimited = await benchProduct(bench.db, 'Bench drop, unlimited', null, { variant: true });
// Alike too: their shoppers warm the web process's add-to-cart and checkout before the first drop,
// on both ways an order takes (or not) its stock: the limited one has more than a warm-up sells.
const dropWarmUps = [
  await benchProduct(bench.db, 'Bench drop, warm-up', null, { variant: true }),
  await benchProduct(bench.db, 'Bench drop, warm-up, limited', 1_000_000, { variant: true }),
];
const year = lastDays(365);
const dbUrl = bench.url;

const appPort = await freePort();
const ceilingPort = await freePort();
const env = {
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  PORT: String(appPort),
  HOST: '127.0.0.1',
  DATABASE_URL: dbUrl,
  SEED_DEMO: 'false',
  LOG_LEVEL: 'warn',
  DATA_DIR: path.join(BENCH_DATA_DIR, 'app'),
  // The bench stands in for the load balancer: each shopper's address comes in X-Forwarded-For,
  // so the per-address limits (checkout: CHECKOUT_RATE_LIMIT a minute) apply as deployed.
  TRUST_PROXY: 'true',
};
const web = startWebCommand();
const server = spawn(process.execPath, [...web.nodeFlags, web.entry], {
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const worker = spawn(process.execPath, ['src/cli/worker.ts'], {
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
const ceilingServer = startCeilingServer(ceilingPort);
// A run that fails (the web process never answers, a target throws) must not leave a worker
// behind to share the cores with the next run.
process.once('exit', () => {
  for (const child of [server, worker, ceilingServer]) if (child.exitCode === null) child.kill('SIGTERM');
});
const base = `http://127.0.0.1:${appPort}`;
await waitForHttp(`${base}/api/health`);
await waitForHttp(`http://127.0.0.1:${ceilingPort}/`);

// Sampled every 250 ms; `targetRss` is reset at the start of each target.
let maxRss = 0;
let targetRss = 0;
const sampler = setInterval(async () => {
  const rss = await rssMb(server.pid ?? 0);
  maxRss = Math.max(maxRss, rss);
  targetRss = Math.max(targetRss, rss);
}, 250);

type Shopper = { address?: string; sid?: string; added?: boolean; sentAt?: number };
/** A drop's response times in ms by request: its adds to cart and its orders (201s). */
type ShopperLatencies = { add: number[]; order: number[] };
const newShopperLatencies = (): ShopperLatencies => ({ add: [], order: [] });
let shoppers = 0;
/** 10.0.0.1, 10.0.0.2, …: one address per order, as many shoppers ordering once each. */
function nextShopperAddress(): string {
  shoppers++;
  return `10.${(shoppers >> 16) & 255}.${(shoppers >> 8) & 255}.${shoppers & 255}`;
}
function sessionIdOf(headers?: http.IncomingHttpHeaders): string | undefined {
  // autocannon keeps the headers' own case.
  const sid = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'x-session-id')?.[1];
  return typeof sid === 'string' ? sid : undefined;
}
/**
 * A new guest shopper per order: an add to cart from a new address, which makes the session, then
 * the checkout in it (skipped when the add was refused: out of stock). `onOrder` sees each 201.
 */
function shopperRequests(
  { productId, variantId }: BenchProduct,
  onOrder: () => void = () => {},
  latencies: ShopperLatencies = newShopperLatencies(),
): autocannon.Request[] {
  return [
    {
      method: 'POST',
      path: '/api/cart?action=add',
      body: JSON.stringify({ productId, variantId, quantity: 1 }),
      setupRequest: (req: autocannon.Request, context: object) => {
        const shopper = context as Shopper;
        shopper.address = nextShopperAddress();
        shopper.sid = undefined;
        shopper.sentAt = performance.now();
        return {
          ...req,
          headers: { 'content-type': 'application/json', 'x-forwarded-for': shopper.address },
        };
      },
      onResponse: (status: number, _body: string, context: object, headers?: http.IncomingHttpHeaders) => {
        const shopper = context as Shopper;
        latencies.add.push(performance.now() - (shopper.sentAt ?? 0));
        shopper.added = status < 300;
        shopper.sid = sessionIdOf(headers) ?? shopper.sid;
      },
    },
    {
      method: 'POST',
      path: '/api/orders',
      setupRequest: (req: autocannon.Request, context: object) => {
        const shopper = context as Shopper;
        // Nothing returned resets the pipeline (autocannon's documented behaviour; its types omit it).
        if (!shopper.added) return undefined as unknown as autocannon.Request;
        shopper.sentAt = performance.now();
        return {
          ...req,
          headers: {
            'content-type': 'application/json',
            'x-session-id': shopper.sid ?? '',
            'x-forwarded-for': shopper.address ?? '',
            'idempotency-key': randomUUID(),
          },
          body: SHOPPER_CHECKOUT_BODY,
        };
      },
      onResponse: (status: number, _body: string, context: object) => {
        if (status !== 201) return;
        latencies.order.push(performance.now() - ((context as Shopper).sentAt ?? 0));
        onOrder();
      },
    },
  ];
}
/** A page as a visitor with this cookie sees it: rendered for them, never from the page cache. */
function withCookie(name: string, pagePath: string, cookie: string): Target {
  return {
    name,
    path: pagePath,
    requests: [{ method: 'GET', path: pagePath, headers: { cookie, 'user-agent': BROWSER_UA } }],
  };
}
// A guest shopper with a cart: their session is made by an add to cart, as a browser's is.
const guestAdd = await fetch(`${base}/api/cart?action=add`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.255.255.254' },
  body: JSON.stringify({ productId: product?.id ?? 1, quantity: 1 }),
});
const guestSid = guestAdd.headers.get('x-session-id');
if (!guestAdd.ok || !guestSid)
  throw new Error(`The guest's add to cart answered ${guestAdd.status}: ${await guestAdd.text()}`);
const guestCookie = `${SESSION_COOKIE}=${guestSid}`;
const postPath = `/post/${samplePost?.slug ?? 'missing'}`;
const shopPath = '/shop?category=Books&page=3';
const productPath = `/product/${anyProduct?.id ?? 1}`;
/** Turns the 'Analytics' setting on or off as an admin's API client does, the rest unchanged. */
async function analyticsSetting(on: boolean): Promise<void> {
  const { settings } = await (await fetch(`${base}/api/settings`)).json();
  const res = await fetch(`${base}/api/settings`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${adminSid}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...settings, analytics: on }),
  });
  if (!res.ok) throw new Error(`Analytics ${on ? 'on' : 'off'}: ${res.status} ${await res.text()}`);
}

const targets: Target[] = [
  { name: 'home', path: '/' },
  // The same stored page with the 'Analytics' setting off, so not counted: the page view path's
  // cost is the difference between the two rows.
  {
    name: 'home, not counted (Analytics setting off)',
    path: '/',
    setup: async () => {
      await analyticsSetting(false);
      return () => analyticsSetting(true);
    },
  },
  // Counted again after it: the first target after the server starts runs colder, so the pair
  // above overstates counting; this one sits on the other side of the uncounted run.
  { name: 'home, counted again', path: '/' },
  { name: 'blog page 50', path: '/blog?page=50' },
  { name: 'post (2,000 comments)', path: postPath },
  { name: 'search', path: '/?q=postgres%20index' },
  { name: 'shop page 3, category', path: shopPath },
  { name: 'product', path: productPath },
  { name: 'GET /api/posts', path: '/api/posts?status=published&limit=12' },
  withCookie('home, signed in', '/', readerCookie),
  withCookie('post (2,000 comments), signed in', postPath, readerCookie),
  withCookie('shop page 3, signed in', shopPath, readerCookie),
  withCookie('product, signed in', productPath, readerCookie),
  withCookie('cart, guest with a cart', '/cart', guestCookie),
  withCookie('checkout, guest with a cart', '/checkout', guestCookie),
  {
    name: 'analytics 12 months',
    path: `/api/admin/analytics?from=${year.from}&to=${year.to}`,
    requests: [
      {
        method: 'GET' as const,
        path: `/api/admin/analytics?from=${year.from}&to=${year.to}`,
        headers: { authorization: `Bearer ${adminSid}`, 'user-agent': BROWSER_UA },
      },
    ],
  },
  {
    name: 'cart + checkout',
    path: '/api/cart?action=add → /api/orders',
    requests: shopperRequests({ productId: product?.id ?? 1, variantId: null }),
  },
].filter(selected);

process.stdout.write(
  `\nPenstand benchmark — ${postCount} posts, ${CONNECTIONS} connections, ${DURATION}s each\n\n`,
);
// Other work on the machine moves every number: the ceiling is measured again right before each
// target (for DURATION too), and each target's ratio is to that neighbouring ceiling.
const ceilingUrl = `http://127.0.0.1:${ceilingPort}`;
const ceilingTarget = { name: 'ceiling', path: '/' };
await cannon(ceilingUrl, ceilingTarget, WARMUP);
// The web process's JIT warms up on whatever comes first: a longer warm-up on the home page before
// any target, so the first one measured is not the slower for being first.
await cannon(base, { name: 'warm-up', path: '/' }, 3 * WARMUP);
const ceilings: autocannon.Result[] = [];
/** The bare server's CPU µs per response in each ceiling run: what a target's own is compared with. */
const ceilingCpuUs: number[] = [];
/** The ceiling right before a target, with its CPU per response. */
async function measureCeiling(): Promise<autocannon.Result> {
  const before = await cpuUs(ceilingServer.pid ?? 0);
  const result = await cannon(ceilingUrl, ceilingTarget, DURATION);
  ceilingCpuUs.push(((await cpuUs(ceilingServer.pid ?? 0)) - before) / Math.max(result.requests.total, 1));
  ceilings.push(result);
  return result;
}
const statusCodes: Record<string, Record<string, number>> = {};
const rows: Row[] = [];
for (let round = 1; round <= ROUNDS; round++)
  for (const target of targets) {
    const ceiling = await measureCeiling();
    targetRss = 0;
    const restore = await target.setup?.();
    await cannon(base, target, WARMUP);
    const cpuBefore = await cpuUs(server.pid ?? 0);
    const result = await cannon(base, target, DURATION);
    const cpuSpent = (await cpuUs(server.pid ?? 0)) - cpuBefore;
    await restore?.();
    statusCodes[target.name] = Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat?.count ?? 0]),
    );
    rows.push({
      name: ROUNDS > 1 ? `${target.name} (round ${round})` : target.name,
      path: target.path,
      requestsPerSec: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      rateLimited: result.statusCodeStats?.['429']?.count ?? 0,
      ratioOfCeiling: result.requests.average / ceiling.requests.average,
      ceilingRps: ceiling.requests.average,
      webRssMb: targetRss,
      webCpuUs: cpuSpent / Math.max(result.requests.total, 1),
    });
  }

/**
 * The product drop: new guest shoppers, one add to cart and one checkout each, for a fixed number
 * of requests (the stock's orders and 500 more shoppers, about half of them refused). No warm-up of
 * its own (it would take stock): a third product's shoppers warm both drops' path first. Orders are
 * counted in the database; orders/s is up to the last 201.
 */
type DropRow = {
  name: string;
  /** Which drop this run was: the limited stock or the unlimited one (rounds repeat both). */
  kind: 'limited' | 'unlimited';
  orders: number;
  ordersPerSec: number;
  p50: number;
  p99: number;
  /** Refused adds and checkouts: the stock was gone. */
  conflicts: number;
  serverErrors: number;
  /** Anything else not 2xx or 409 (a 422 would be a checkout of an empty cart). */
  otherNon2xx: number;
  stockLeft: number | null;
  ceilingRps: number;
  /**
   * CPU ms per order: the web process's and the benchmark PostgreSQL's up to the drop's last order
   * and again from the end of its requests until its confirmations were sent (the worker's relays
   * and mails; PostgreSQL NaN when it is not embedded here), and the worker's throughout.
   */
  cpuMsPerOrder: { web: number; worker: number; database: number };
  /** CPU ms in all between the last order and the end of the requests: the refused shoppers'. */
  refusalCpuMs: { web: number; database: number };
  /** Of PostgreSQL's CPU per order, its background processes' (autovacuum, WAL writer, checkpointer). */
  databaseBackgroundMsPerOrder: number;
  /** Seconds waited before the drop for the processes to go quiet. */
  settledAfter: number;
  /** p50 and p99 in ms of its adds to cart and of its orders, apart (the p50 and p99 above mix them). */
  latencyByRequest: { add: [number, number]; order: [number, number] };
};
/** The p50 and p99 of response times (nearest rank). */
function p50AndP99(times: number[]): [number, number] {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return [at(0.5), at(0.99)];
}
const drops = [
  {
    name: `drop, variant's stock ${DROP_STOCK.toLocaleString('en')}`,
    kind: 'limited' as const,
    product: dropLimited,
  },
  { name: 'drop, variant unlimited', kind: 'unlimited' as const, product: dropUnlimited },
].filter(selected);
// A B, then B A, …: each drop runs first as often as second, after the same work.
const dropRuns = Array.from({ length: DROP_ROUNDS }, (_, round) =>
  (round % 2 === 0 ? drops : [...drops].reverse()).map((drop) => ({ ...drop, round: round + 1 })),
).flat();
const dropRows: DropRow[] = [];
if (drops.length) {
  // The drops take no warm-up of their own (it would take stock): shoppers of two other products
  // warm the order's code and statements, both paths of its stock, so the first drop measured is
  // not the colder one. Then the worker is given time to mail their confirmations, which would
  // otherwise run during that drop.
  const warmUpStart = new Date();
  for (const product of dropWarmUps)
    await cannon(
      base,
      { name: 'drop warm-up', path: '/api/orders', requests: shopperRequests(product) },
      WARMUP,
    );
  await confirmationsSent(warmUpStart);
}

/** Waits (at most a minute) until the worker has mailed the confirmations of the orders placed since then. */
async function confirmationsSent(since: Date): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 250) {
    const unsent = await bench
      .db('orders')
      .where('created_at', '>=', since)
      .where({ confirmation_sent: false })
      .count({ n: '*' })
      .first();
    if (Number(unsent?.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The processes' CPU so far: the web process's and the worker's in µs, PostgreSQL's in ms. */
type CpuSample = { at: number; web: number; worker: number; database: number; background: number };
const cpuSample = async (): Promise<CpuSample> => {
  const at = Date.now();
  const processes = { web: await cpuUs(server.pid ?? 0), worker: await cpuUs(worker.pid ?? 0) };
  const { total, background } = await databaseCpu();
  return { at, ...processes, database: total, background };
};
/**
 * Waits (at most a minute) until the web process, the worker and PostgreSQL have used under 5% of
 * a core for a second: what the work before left running (autovacuum, a backlog of jobs) is not a
 * drop's cost. Returns the seconds waited.
 */
async function settled(): Promise<number> {
  const used = async () => {
    const sample = await cpuSample();
    return (sample.web + sample.worker) / 1000 + sample.database;
  };
  for (let waited = 0; waited < 60; waited++) {
    const before = await used();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if ((await used()) - before < 50) return waited + 1;
  }
  return 60;
}
for (const drop of dropRuns) {
  const { productId, variantId } = drop.product;
  await setStock(bench.db, productId, drop.kind === 'limited' ? DROP_STOCK : null, variantId);
  const settledAfter = await settled();
  const ceiling = await measureCeiling();
  const startedAt = new Date();
  let lastOrderAt = Date.now();
  if (values.statements) await resetStatementStats(bench.db);
  // The processes' CPU every 200 ms while the shoppers run: the first sample after the last order
  // splits the orders' CPU from the refused shoppers' that follows it.
  const latencies = newShopperLatencies();
  const samples = [await cpuSample()];
  const sampling = setInterval(async () => samples.push(await cpuSample()), 200);
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    amount: 2 * (DROP_STOCK + 500),
    headers: { 'user-agent': BROWSER_UA, 'accept-encoding': 'gzip' },
    requests: shopperRequests(
      drop.product,
      () => {
        lastOrderAt = Date.now();
      },
      latencies,
    ),
  });
  clearInterval(sampling);
  const ended = await cpuSample();
  // A sample's reads may end out of turn: the first taken after the last order.
  const lastOrder = samples.sort((a, b) => a.at - b.at).find((s) => s.at >= lastOrderAt) ?? ended;
  // The worker yields to the web process (WORKER_NICE): what it left for after the drop counts too.
  await confirmationsSent(startedAt);
  const sent = await cpuSample();
  const codes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat?.count ?? 0]),
  );
  const name = DROP_ROUNDS > 1 ? `${drop.name} (round ${drop.round})` : drop.name;
  statusCodes[name] = codes;
  const count = (test: (code: string) => boolean) =>
    Object.entries(codes).reduce((n, [code, c]) => (test(code) ? n + c : n), 0);
  const ordered = await bench
    .db('order_items')
    .where({ product_id: productId })
    .where('created_at', '>=', startedAt)
    .count({ n: '*' })
    .first();
  const left = await stockOf(bench.db, productId, variantId);
  const orders = Number(ordered?.n ?? 0);
  if (values.statements) process.stdout.write(`\n${name}: ${await statementReport(bench.db, orders)}`);
  const perOrder = (ms: number) => ms / Math.max(orders, 1);
  const ordersCpu = (key: 'web' | 'database') => lastOrder[key] - samples[0][key] + sent[key] - ended[key];
  dropRows.push({
    name,
    kind: drop.kind,
    orders,
    ordersPerSec: orders / Math.max((lastOrderAt - startedAt.getTime()) / 1000, 0.001),
    p50: result.latency.p50,
    p99: result.latency.p99,
    conflicts: count((code) => code === '409'),
    serverErrors: count((code) => code.startsWith('5')) + result.errors + result.timeouts,
    otherNon2xx: count((code) => !code.startsWith('2') && !code.startsWith('5') && code !== '409'),
    stockLeft: left,
    ceilingRps: ceiling.requests.average,
    cpuMsPerOrder: {
      web: perOrder(ordersCpu('web') / 1000),
      worker: perOrder((sent.worker - samples[0].worker) / 1000),
      database: perOrder(ordersCpu('database')),
    },
    refusalCpuMs: {
      web: (ended.web - lastOrder.web) / 1000,
      database: ended.database - lastOrder.database,
    },
    databaseBackgroundMsPerOrder: perOrder(sent.background - samples[0].background),
    settledAfter,
    latencyByRequest: { add: p50AndP99(latencies.add), order: p50AndP99(latencies.order) },
  });
}

/** The drops' budgets over every round: orders/s and CPU per order averaged per kind of drop. */
function dropSummary(rows: DropRow[]): string | null {
  const average = (kind: DropRow['kind'], f: (row: DropRow) => number) => {
    const of = rows.filter((row) => row.kind === kind);
    return of.reduce((n, row) => n + f(row), 0) / of.length;
  };
  if (!rows.some((r) => r.kind === 'limited') || !rows.some((r) => r.kind === 'unlimited')) return null;
  const cpu = (row: DropRow) => row.cpuMsPerOrder.web + row.cpuMsPerOrder.worker + row.cpuMsPerOrder.database;
  const limited = average('limited', (row) => row.ordersPerSec);
  const unlimited = average('unlimited', (row) => row.ordersPerSec);
  const rounds = rows.length / 2;
  return [
    `Product drop over ${rounds} round${rounds === 1 ? '' : 's'} (means): limited ${limited.toFixed(0)} orders/s, unlimited ${unlimited.toFixed(0)}: ${((limited / unlimited) * 100).toFixed(1)}% (budget 90%)`,
    `  p99 ${Math.max(...rows.map((row) => row.p99))} ms at most (budget 250); CPU per order limited ${average('limited', cpu).toFixed(2)} ms, unlimited ${average('unlimited', cpu).toFixed(2)} (budget 8)`,
    `  against PostgreSQL alone: npm run bench:order-floor's unlimited orders/s, of which ${unlimited.toFixed(0)} must be at least 50%`,
  ].join('\n');
}

const dropVerdicts = dropSummary(dropRows);

const mean = (f: (r: autocannon.Result) => number) =>
  ceilings.reduce((n, r) => n + f(r), 0) / ceilings.length;
rows.unshift({
  name: 'bare node:http 20 KB (ceiling, mean)',
  path: '/',
  requestsPerSec: mean((r) => r.requests.average),
  p50: Math.round(mean((r) => r.latency.p50)),
  p99: Math.round(mean((r) => r.latency.p99)),
  errors: ceilings.reduce((n, r) => n + r.errors, 0),
  non2xx: ceilings.reduce((n, r) => n + r.non2xx, 0),
  rateLimited: 0,
  ratioOfCeiling: 1,
  ceilingRps: mean((r) => r.requests.average),
  webRssMb: 0,
  webCpuUs: ceilingCpuUs.reduce((n, us) => n + us, 0) / Math.max(ceilingCpuUs.length, 1),
});

const bundles: Record<string, { js: number; css: number }> = {};
for (const [name, pagePath] of [
  ['home', '/'],
  ['post', `/post/${samplePost?.slug ?? 'missing'}`],
  ['shop', '/shop'],
  ['product', `/product/${anyProduct?.id ?? 1}`],
]) {
  bundles[name] = await firstLoadBytes(base, pagePath);
}
clearInterval(sampler);
const exited = Promise.all(
  [server, worker].map((child) => new Promise((resolve) => child.once('exit', resolve))),
);
server.kill('SIGTERM');
worker.kill('SIGTERM');
ceilingServer.kill('SIGTERM');
await exited; // the database stops last, after the app has closed its pools
await bench.stop();

const pad = (s: string, n: number) => s.padEnd(n);
const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
process.stdout.write(
  `${pad('target', 38)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(9)}${'non-2xx'.padStart(9)}${'429'.padStart(9)}${'ratio'.padStart(9)}${'RSS MB'.padStart(9)}${'CPU µs'.padStart(9)}\n`,
);
for (const row of rows) {
  process.stdout.write(
    `${pad(row.name, 38)}${num(row.requestsPerSec)}${num(row.p50)}${num(row.p99)}${num(row.errors)}${num(row.non2xx)}${num(row.rateLimited)}${num(row.ratioOfCeiling * 100, 1)}%${row.webRssMb ? num(row.webRssMb) : '        -'}${row.webCpuUs ? num(row.webCpuUs) : '        -'}\n`,
  );
}
for (const [name, codes] of Object.entries(statusCodes)) {
  const other = Object.entries(codes).filter(([code]) => !code.startsWith('2'));
  if (other.length)
    process.stdout.write(`  ${name}: ${other.map(([code, n]) => `${n} × ${code}`).join(', ')}\n`);
}
if (dropRows.length) {
  process.stdout.write(
    `\n${pad('product drop', 38)}${'orders'.padStart(9)}${'orders/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'409'.padStart(9)}${'5xx'.padStart(9)}${'other'.padStart(9)}${'stock'.padStart(9)}${'ceiling'.padStart(9)}${'web ms'.padStart(9)}${'worker'.padStart(9)}${'PG ms'.padStart(9)}\n`,
  );
  for (const d of dropRows)
    process.stdout.write(
      `${pad(d.name, 38)}${num(d.orders)}${num(d.ordersPerSec)}${num(d.p50)}${num(d.p99)}${num(d.conflicts)}${num(d.serverErrors)}${num(d.otherNon2xx)}${(d.stockLeft === null ? 'none' : String(d.stockLeft)).padStart(9)}${num(d.ceilingRps)}${d.cpuMsPerOrder.web.toFixed(2).padStart(9)}${d.cpuMsPerOrder.worker.toFixed(2).padStart(9)}${d.cpuMsPerOrder.database.toFixed(2).padStart(9)}\n`,
    );
  for (const d of dropRows)
    process.stdout.write(
      `  ${d.name}: started after ${d.settledAfter} s of waiting for quiet; PostgreSQL's background processes ${d.databaseBackgroundMsPerOrder.toFixed(2)} ms per order\n`,
    );
  for (const d of dropRows)
    process.stdout.write(
      `  ${d.name}: adds to cart p50 ${d.latencyByRequest.add[0].toFixed(0)} ms, p99 ${d.latencyByRequest.add[1].toFixed(0)}; orders p50 ${d.latencyByRequest.order[0].toFixed(0)} ms, p99 ${d.latencyByRequest.order[1].toFixed(0)}\n`,
    );
  for (const d of dropRows.filter((row) => row.conflicts))
    process.stdout.write(
      `  ${d.name}: the ${d.conflicts} refusals after its last order took ${d.refusalCpuMs.web.toFixed(0)} ms of web CPU and ${d.refusalCpuMs.database.toFixed(0)} ms of PostgreSQL's (not in its CPU per order)\n`,
    );
  if (dropVerdicts) process.stdout.write(`\n${dropVerdicts}\n`);
}
process.stdout.write('\nFirst-load bytes (gzip):\n');
for (const [name, b] of Object.entries(bundles)) {
  process.stdout.write(
    `  ${pad(name, 10)} JS ${(b.js / 1024).toFixed(1)} KB   CSS ${(b.css / 1024).toFixed(1)} KB\n`,
  );
}
/** What counting page views costs the web process per stored home page: CPU µs, counted vs not. */
const homeCpu = (counted: boolean) => {
  const cpu = rows
    .filter((r) =>
      counted
        ? /^home(, counted again)?( \(round \d+\))?$/.test(r.name)
        : r.name.startsWith('home, not counted'),
    )
    .map((r) => r.webCpuUs);
  return cpu.length ? cpu.reduce((a, b) => a + b, 0) / cpu.length : 0;
};
if (homeCpu(true) && homeCpu(false))
  process.stdout.write(
    `\nCounting page views: ${homeCpu(true).toFixed(1)} µs of web CPU per stored home page counted, ${homeCpu(false).toFixed(1)} µs not counted (${(((homeCpu(true) - homeCpu(false)) / homeCpu(false)) * 100).toFixed(1)}%, budget 5%)\n`,
  );
process.stdout.write(`\nWeb process peak RSS over the whole run: ${maxRss.toFixed(0)} MB (budget 300 MB)\n`);

await mkdir('bench-results', { recursive: true });
const report = {
  date: new Date().toISOString(),
  posts: postCount,
  connections: CONNECTIONS,
  duration: DURATION,
  rows,
  drops: dropRows,
  statusCodes,
  bundles,
  maxRssMb: maxRss,
};
await writeFile('bench-results/latest.json', `${JSON.stringify(report, null, 2)}\n`);
const markdown = [
  '| target | req/s | p50 ms | p99 ms | errors | non-2xx | of which 429 | ceiling req/s | of ceiling | web RSS MB | web CPU µs/request |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.requestsPerSec.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.rateLimited} | ${r.ceilingRps.toFixed(0)} | ${(r.ratioOfCeiling * 100).toFixed(1)}% | ${r.webRssMb ? r.webRssMb.toFixed(0) : '–'} | ${r.webCpuUs ? r.webCpuUs.toFixed(0) : '–'} |`,
  ),
  '',
  ...(dropRows.length
    ? [
        '| product drop | orders | orders/s | p50 ms | p99 ms | 409 | 5xx | other non-2xx | stock left | ceiling req/s | CPU ms per order: web, worker, PostgreSQL |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        ...dropRows.map(
          (d) =>
            `| ${d.name} | ${d.orders} | ${d.ordersPerSec.toFixed(0)} | ${d.p50} | ${d.p99} | ${d.conflicts} | ${d.serverErrors} | ${d.otherNon2xx} | ${d.stockLeft ?? 'unlimited'} | ${d.ceilingRps.toFixed(0)} | ${d.cpuMsPerOrder.web.toFixed(2)}, ${d.cpuMsPerOrder.worker.toFixed(2)}, ${d.cpuMsPerOrder.database.toFixed(2)} |`,
        ),
        '',
        ...(dropVerdicts ? [dropVerdicts, ''] : []),
      ]
    : []),
  '| page | JS gzip KB | CSS gzip KB |',
  '| --- | ---: | ---: |',
  ...Object.entries(bundles).map(
    ([name, b]) => `| ${name} | ${(b.js / 1024).toFixed(1)} | ${(b.css / 1024).toFixed(1)} |`,
  ),
  '',
  `Web process peak RSS over the whole run: ${maxRss.toFixed(0)} MB.`,
].join('\n');
await writeFile('bench-results/latest.md', `${markdown}\n`);
process.stdout.write('\nWritten to bench-results/latest.json and bench-results/latest.md\n');
