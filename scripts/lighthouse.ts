import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import pg from 'pg';
import { openBenchDatabase } from './bench/database.ts';
import { freePort } from './free-port.ts';

/**
 * `npm run lighthouse`: Lighthouse (mobile) on home, a post, /shop and a product of the demo
 * site, served by the production build on an embedded database of its own (.lighthouse-data).
 * `npm run lighthouse -- --bench`: the same on the benchmark database (npm run bench:data).
 * `--reports <dir>` also writes each page's full Lighthouse result to `<dir>/<page>.json`, to read
 * the details of a failing audit.
 */
const { values } = parseArgs({
  options: { bench: { type: 'boolean', default: false }, reports: { type: 'string' } },
});

const port = await freePort();
const pgPort = await freePort();
const dataDir = path.resolve('.lighthouse-data');
const bench = values.bench ? await openBenchDatabase() : null;
await bench?.db.destroy();
const databaseUrl = bench?.url ?? `postgres://postgres:postgres@127.0.0.1:${pgPort}/penstand`;
const server = spawn(process.execPath, ['src/web/start.ts', '--with-worker'], {
  env: {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    ...(bench ? { DATABASE_URL: bench.url, SEED_DEMO: 'false' } : { EMBEDDED_PG_PORT: String(pgPort) }),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://localhost:${port}`,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://localhost:${port}`;
for (let i = 0; i < 300; i++) {
  const ok = await fetch(`${base}/api/health`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  await new Promise((r) => setTimeout(r, 200));
}

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const post = (
  await db.query(`SELECT slug FROM posts WHERE status = 'published' ORDER BY published_at DESC LIMIT 1`)
).rows[0];
const product = (await db.query(`SELECT id FROM products WHERE status = 'active' ORDER BY id LIMIT 1`))
  .rows[0];
await db.end();

const pages = [
  ['home', '/'],
  ['post', `/post/${post?.slug}`],
  ['shop', '/shop'],
  ['product', `/product/${product?.id}`],
] as const;

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
type Row = {
  page: string;
  url: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  transferKb: number;
};
const rows: Row[] = [];
try {
  for (const [name, pagePath] of pages) {
    let result: Awaited<ReturnType<typeof lighthouse>>;
    // A failed trace (NO_NAVSTART, NO_FCP, which Lighthouse says to run again) leaves every
    // performance metric empty, which would print as a score of 0: measure again, then give up.
    for (let attempt = 1; ; attempt++) {
      result = await lighthouse(`${base}${pagePath}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${pagePath}`);
      const failure = result.lhr.runtimeError;
      if (!failure) break;
      if (attempt === 3) throw new Error(`Lighthouse failed on ${pagePath}: ${failure.code}`);
      process.stdout.write(`${name}: ${failure.code}, measuring again\n`);
    }
    if (values.reports) {
      await mkdir(values.reports, { recursive: true });
      await writeFile(path.join(values.reports, `${name}.json`), `${JSON.stringify(result.lhr, null, 2)}\n`);
    }
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    rows.push({
      page: name,
      url: pagePath,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      transferKb: Math.round(((audits['total-byte-weight']?.numericValue ?? 0) / 1024) * 10) / 10,
    });
    const failing = Object.values(audits).filter(
      (a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary',
    );
    if (failing.length)
      process.stdout.write(`${name}: failing audits: ${failing.map((a) => a.id).join(', ')}\n`);
  }
} finally {
  await chrome.kill();
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
  await bench?.stop();
}

process.stdout.write(
  `\n${'page'.padEnd(10)}${'perf'.padStart(6)}${'a11y'.padStart(6)}${'bp'.padStart(6)}${'seo'.padStart(6)}${'KB'.padStart(8)}\n`,
);
for (const r of rows) {
  process.stdout.write(
    `${r.page.padEnd(10)}${String(r.performance).padStart(6)}${String(r.accessibility).padStart(6)}${String(r.bestPractices).padStart(6)}${String(r.seo).padStart(6)}${r.transferKb.toFixed(1).padStart(8)}\n`,
  );
}
await mkdir('bench-results', { recursive: true });
await writeFile(
  'bench-results/lighthouse.json',
  `${JSON.stringify({ date: new Date().toISOString(), data: bench ? 'bench' : 'demo', rows }, null, 2)}\n`,
);
