import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type Koa from 'koa';
import { listen } from '../../src/server/http.ts';
import { openBenchDatabase } from './database.ts';
import { benchApp } from './in-process-app.ts';

/**
 * `npm run bench:stored`: the web process's CPU time per request for stored pages
 * (page cache and JSON cache hits), measured in this process with process.cpuUsage() while a
 * separate process sends the requests, so the load generator's own CPU is not counted. Throughput
 * on a shared machine swings with the neighbours' load; CPU per request does not, much. Variants
 * alternate within each repetition. `--without N` also measures the app with middleware N removed
 * (an index of app.middleware, see --list), which tells what that middleware costs per request.
 * Needs the benchmark database (npm run bench:data) and a build (npm run build).
 */
const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    reps: { type: 'string', default: '3' },
    path: { type: 'string', multiple: true },
    without: { type: 'string', multiple: true, default: [] },
    list: { type: 'boolean', default: false },
  },
});

const bench = await openBenchDatabase();
const post = await bench.db('posts').where({ status: 'published' }).orderBy('id').first('slug');
const product = await bench.db('products').where({ status: 'active' }).orderBy('id').first('id');
const { app, runtime } = await benchApp(bench.url);
if (values.list) {
  for (const [i, mw] of app.middleware.entries())
    process.stdout.write(`${i} ${mw.toString().slice(0, 100)}\n`);
}
const full = [...app.middleware];
const web = await listen(app, '127.0.0.1', 0);
const base = `http://127.0.0.1:${web.port}`;

const paths = values.path ?? ['/', `/post/${post?.slug}`, `/product/${product?.id}`, '/api/posts'];
const headers = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
  'accept-encoding': 'gzip, deflate, br',
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
};

/** N requests from a child process at 50 connections; the CPU this process spent meanwhile. */
async function cpuPerRequest(url: string, n: number): Promise<number> {
  const script = `require('autocannon')({ url: ${JSON.stringify(url)}, connections: 50, amount: ${n},
    headers: ${JSON.stringify(headers)} }, (err, r) => { if (err) throw err; process.stdout.write(JSON.stringify({ non2xx: r.non2xx })); });`;
  const before = process.cpuUsage();
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`autocannon exited ${code}`))));
  });
  const used = process.cpuUsage(before);
  const { non2xx } = JSON.parse(out);
  if (non2xx) process.stderr.write(`${url}: ${non2xx} non-2xx answers\n`);
  return (used.user + used.system) / n;
}

const variants: { name: string; middleware: Koa.Middleware[] }[] = [{ name: 'full', middleware: full }];
for (const i of values.without) {
  variants.push({ name: `without #${i}`, middleware: full.filter((_, j) => j !== Number(i)) });
}
// The bench's ceiling (bare node:http sending 20 KB) measured the same way, for the ratio.
const page = `<!doctype html><html><head><title>x</title></head><body>${'x'.repeat(20 * 1024)}</body></html>`;
const ceiling = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end(page);
});
await new Promise<void>((resolve) => ceiling.listen(0, '127.0.0.1', resolve));
const ceilingUrl = `http://127.0.0.1:${(ceiling.address() as AddressInfo).port}/`;
const n = Number(values.requests);
const median = (runs: number[]) => runs.toSorted((a, b) => a - b)[Math.floor(runs.length / 2)];
const bare: number[] = [];
for (const pagePath of paths) {
  const results = new Map<string, number[]>();
  for (let rep = 0; rep < Number(values.reps); rep++) {
    for (const variant of variants) {
      app.middleware = variant.middleware;
      // Koa composes the middleware per callback: a new one for each variant.
      web.server.removeAllListeners('request');
      web.server.on('request', app.callback());
      const first = await fetch(`${base}${pagePath}`, { headers });
      await first.arrayBuffer();
      if (rep === 0 && variant === variants[0])
        process.stdout.write(
          `${pagePath}: ${first.headers.get('content-length')} bytes sent, ${first.headers.get('content-encoding')}\n`,
        );
      await cpuPerRequest(`${base}${pagePath}`, 2_000); // warm-up
      const us = await cpuPerRequest(`${base}${pagePath}`, n);
      results.set(variant.name, [...(results.get(variant.name) ?? []), us]);
    }
    await cpuPerRequest(ceilingUrl, 2_000);
    bare.push(await cpuPerRequest(ceilingUrl, n));
  }
  for (const [name, runs] of results) {
    process.stdout.write(
      `${pagePath.padEnd(40)} ${name.padEnd(14)} median ${median(runs).toFixed(1)} µs/req  (${runs.map((r) => r.toFixed(1)).join(', ')})\n`,
    );
  }
}
process.stdout.write(
  `bare node:http ceiling (20 KB)               median ${median(bare).toFixed(1)} µs/req\n`,
);
ceiling.close();
await web.close();
await runtime.close();
await bench.stop();
process.exit(0);
