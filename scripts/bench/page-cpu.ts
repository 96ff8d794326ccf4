import '../../src/server/production-by-default.ts';
import { fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createSession, SESSION_COOKIE } from '../../src/identity/sessions.ts';
import { listen } from '../../src/server/http.ts';
import { openBenchDatabase } from './database.ts';
import { benchApp } from './in-process-app.ts';

/**
 * `npm run bench:cpu`: the web process's CPU time per request for each page a signed-in reader or a
 * guest shopper gets (from its template; `--live` renders each one), on the benchmark database (npm run
 * bench:data; npm run build first; npm run bench once, for the bench reader). Unlike req/s, CPU
 * time per request holds still while other work shares the machine. The requests come from a child
 * process, so its CPU is not counted; the median of the repetitions is printed.
 */
const { values } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: 'string', default: '200' },
    repeat: { type: 'string', default: '3' },
    connections: { type: 'string', default: '4' },
    only: { type: 'string', multiple: true },
    /** Renders every page live (templates off, with the page cache: PAGE_CACHE_TTL_SECONDS=0). */
    live: { type: 'boolean', default: false },
    /** Writes a CPU profile of each page's measured requests here: <dir>/<page>.cpuprofile. */
    profile: { type: 'string' },
  },
});
const REQUESTS = Number(values.requests);
const REPEAT = Number(values.repeat);
const CONNECTIONS = Number(values.connections);

if (process.argv[2] === 'client') {
  // The child: runs the batches the parent asks for, and tells it when each is done.
  process.on('message', async (batch: { url: string; cookie: string; n: number; connections: number }) => {
    let left = batch.n;
    let bytes = 0;
    let status = 0;
    const one = async () => {
      while (left-- > 0) {
        const res = await fetch(batch.url, {
          headers: {
            cookie: batch.cookie,
            'accept-encoding': 'gzip',
            'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36',
          },
          redirect: 'manual',
        });
        const body = Buffer.from(await res.arrayBuffer());
        bytes = Number(res.headers.get('content-length') ?? body.length);
        status = res.status;
      }
    };
    await Promise.all(Array.from({ length: batch.connections }, one));
    process.send?.({ bytes, status });
  });
} else {
  const bench = await openBenchDatabase();
  const reader = await bench.db('users').where({ email: 'bench-reader@penstand.local' }).first('id');
  if (!reader) throw new Error('No bench reader: run npm run bench once first');
  const readerCookie = `${SESSION_COOKIE}=${await createSession(bench.db, reader.id)}`;
  const post = await bench.db('posts').where({ status: 'published' }).orderBy('id').first('slug');
  const product = await bench.db('products').where({ status: 'active' }).orderBy('id').first('id');
  const unlimited = await bench
    .db('products')
    .where({ status: 'active' })
    .whereNull('stock')
    .orderBy('id')
    .first('id');

  const { app, runtime } = await benchApp(bench.url, values.live ? { PAGE_CACHE_TTL_SECONDS: '0' } : {});
  const web = await listen(app, '127.0.0.1', 0);
  const base = `http://127.0.0.1:${web.port}`;

  // A guest shopper: the session an add to cart makes, as a browser's is.
  const added = await fetch(`${base}/api/cart?action=add`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId: unlimited?.id ?? 1, quantity: 1 }),
  });
  const guestSid = added.headers.get('x-session-id');
  if (!added.ok || !guestSid) throw new Error(`The guest's add to cart answered ${added.status}`);
  const guestCookie = `${SESSION_COOKIE}=${guestSid}`;

  const pages = [
    ['home, signed in', '/', readerCookie],
    ['post (2,000 comments), signed in', `/post/${post?.slug}`, readerCookie],
    ['shop page 3, signed in', '/shop?category=Books&page=3', readerCookie],
    ['product, signed in', `/product/${product?.id}`, readerCookie],
    ['cart, guest with a cart', '/cart', guestCookie],
    ['checkout, guest with a cart', '/checkout', guestCookie],
  ].filter(([name]) => !values.only?.length || values.only.some((o) => name.includes(o)));

  const client = fork(new URL(import.meta.url).pathname, ['client'], { stdio: 'inherit' });
  client.on('exit', (code) => {
    if (code) throw new Error(`The client process exited with ${code}`);
  });
  const run = (url: string, cookie: string, n: number) =>
    new Promise<{ bytes: number; status: number }>((resolve) => {
      client.once('message', (m) => resolve(m as { bytes: number; status: number }));
      client.send({ url, cookie, n, connections: CONNECTIONS });
    });

  process.stdout.write(`${'page'.padEnd(36)} status  HTML bytes   CPU ms/request (runs)\n`);
  const inspector = new Session();
  inspector.connect();
  for (const [name, pagePath, cookie] of pages) {
    await run(`${base}${pagePath}`, cookie, 30);
    if (values.profile) {
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.start');
    }
    const runs: number[] = [];
    let last = { bytes: 0, status: 0 };
    for (let i = 0; i < REPEAT; i++) {
      const before = process.cpuUsage();
      last = await run(`${base}${pagePath}`, cookie, REQUESTS);
      const used = process.cpuUsage(before);
      runs.push((used.user + used.system) / 1000 / REQUESTS);
    }
    if (values.profile) {
      const { profile } = await inspector.post('Profiler.stop');
      const file = `${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`;
      await writeFile(path.join(values.profile, file), JSON.stringify(profile));
    }
    const median = [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)];
    process.stdout.write(
      `${name.padEnd(36)} ${String(last.status).padEnd(7)} ${String(last.bytes).padEnd(12)} ${median.toFixed(2)}  (${runs.map((r) => r.toFixed(2)).join(', ')})\n`,
    );
  }
  client.kill();
  await web.close();
  await runtime.close();
  await bench.stop();
}
