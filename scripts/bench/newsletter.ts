import { spawn, spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { SMTPServer } from 'smtp-server';
import { requestNewsletter } from '../../src/blog/newsletter-delivery.ts';
import { startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { createDb } from '../../src/db/knex.ts';
import { migrateLatest } from '../../src/db/migrate.ts';
import { freePort } from '../free-port.ts';
import { startWebCommand } from '../start-web-command.ts';

/**
 * `npm run bench:newsletter`: a newsletter to N confirmed subscribers through a worker process on
 * the PostgreSQL queue, into an SMTP sink in this process, at NEWSLETTER_RATE_PER_SECOND; the web
 * process's latency on the home page is measured before and while it goes out.
 */
const { values } = parseArgs({
  options: { subscribers: { type: 'string', default: '10000' }, rate: { type: 'string', default: '100' } },
});
const N = Number(values.subscribers);
const RATE = Number(values.rate);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
if (spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0)
  process.exit(1);

const dataDir = path.resolve('.bench-data-newsletter');
const pg = await startEmbeddedPostgres({ dataDir, port: 55442, database: 'penstand_newsletter' });
const db = createDb(pg.url, 4);
await migrateLatest(db);
await db.raw('TRUNCATE newsletter_subscribers, newsletters, posts CASCADE');
for (let i = 0; i < N; i += 5_000) {
  const rows = Array.from({ length: Math.min(5_000, N - i) }, (_, k) => ({
    email: `reader${i + k}@example.com`,
    status: 'confirmed',
    token: `bench-token-${i + k}-xxxxxxxxxxxxxxxx`,
  }));
  await db('newsletter_subscribers').insert(rows);
}
const [post] = await db('posts')
  .insert({
    title: 'A letter to many',
    slug: 'a-letter-to-many',
    content: 'Body',
    content_html: `<p>${'A paragraph of a typical post. '.repeat(40)}</p>`.repeat(8),
    excerpt: 'A letter',
    category: 'Technology',
    status: 'published',
    published_at: new Date(),
  })
  .returning('id');

let received = 0;
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.resume();
    stream.on('end', () => {
      received++;
      callback();
    });
  },
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
const smtpPort = (sink.server.address() as AddressInfo).port;

const port = await freePort();
const env = {
  PATH: process.env.PATH,
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: pg.url,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  SEED_DEMO: 'false',
  LOG_LEVEL: 'warn',
  DATA_DIR: path.join(dataDir, 'app'),
  NEWSLETTER_RATE_PER_SECOND: String(RATE),
  PAGE_CACHE_TTL_SECONDS: '0',
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
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 300; i++) {
  if (
    await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 200));
}

const latency = async () => {
  const result = await autocannon({ url: `${base}/`, connections: 4, duration: 10 });
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
};
const idle = await latency();
const started = Date.now();
await requestNewsletter(db, post.id, null);
await new Promise((r) => setTimeout(r, 3_000));
const during = await latency();
while ((await db('newsletters').where({ post_id: post.id }).first('state')).state !== 'sent') {
  await new Promise((r) => setTimeout(r, 500));
}
const seconds = (Date.now() - started) / 1000;
process.stdout.write(
  `${JSON.stringify(
    {
      subscribers: N,
      configuredRate: RATE,
      delivered: received,
      seconds: Math.round(seconds * 10) / 10,
      achievedRate: Math.round((received / seconds) * 10) / 10,
      homeIdle: idle,
      homeWhileSending: during,
    },
    null,
    2,
  )}\n`,
);
const exited = (child: ReturnType<typeof spawn>) => new Promise((resolve) => child.once('exit', resolve));
server.kill('SIGTERM');
worker.kill('SIGTERM');
await Promise.all([exited(server), exited(worker)]);
sink.close();
await db.destroy();
await pg.stop();
