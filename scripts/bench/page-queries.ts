import { parseArgs } from 'node:util';
import { createSession, SESSION_COOKIE } from '../../src/identity/sessions.ts';
import { listen } from '../../src/server/http.ts';
import { UNLIMITED_SQL } from './bench-product.ts';
import { openBenchDatabase } from './database.ts';
import { benchApp } from './in-process-app.ts';

/**
 * `npm run bench:queries`: the SQL statements each page sends for a signed-in reader, and the cart
 * and checkout for a guest shopper (the page cache bypassed), counted per request, on the
 * benchmark database (npm run bench:data; npm run build first). `--sql` prints each statement.
 * Run `npm run bench` once before: it makes the bench reader.
 */
const { values } = parseArgs({ options: { sql: { type: 'boolean', default: false } } });

const bench = await openBenchDatabase();
const reader = await bench.db('users').where({ email: 'bench-reader@penstand.local' }).first('id');
if (!reader) throw new Error('No bench reader: run npm run bench once first');
const cookie = `${SESSION_COOKIE}=${await createSession(bench.db, reader.id)}`;
const post = await bench.db('posts').where({ status: 'published' }).orderBy('id').first('slug');
const product = await bench.db('products').where({ status: 'active' }).orderBy('id').first('id');

const { app, runtime } = await benchApp(bench.url);
const web = await listen(app, '127.0.0.1', 0);

// A guest shopper: the session an add to cart makes (of a product with unlimited stock).
const unlimited = await bench.db('products').whereRaw(UNLIMITED_SQL).first('id');
const added = await fetch(`http://127.0.0.1:${web.port}/api/cart?action=add`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ productId: unlimited?.id ?? 1, quantity: 1 }),
});
const guestCookie = `${SESSION_COOKIE}=${added.headers.get('x-session-id')}`;

// One request at a time: every statement the process sends meanwhile is that page's.
let statements: string[] = [];
runtime.services.db.on('query', (query: { sql: string }) => statements.push(query.sql));
const pages = [
  ['home', '/', cookie],
  ['post (2,000 comments)', `/post/${post?.slug}`, cookie],
  ['shop page 3, category', '/shop?category=Books&page=3', cookie],
  ['product', `/product/${product?.id}`, cookie],
  ['cart, guest with a cart', '/cart', guestCookie],
  ['checkout, guest with a cart', '/checkout', guestCookie],
];
for (const [name, pagePath, pageCookie] of pages) {
  // The second request is counted: the first warms what a process keeps (settings, the build).
  for (const counted of [false, true]) {
    statements = [];
    const res = await fetch(`http://127.0.0.1:${web.port}${pagePath}`, { headers: { cookie: pageCookie } });
    await res.text();
    if (!counted) continue;
    process.stdout.write(`${name.padEnd(28)} ${res.status}  ${statements.length} statements\n`);
    if (values.sql) for (const sql of statements) process.stdout.write(`    ${sql.slice(0, 200)}\n`);
  }
}
await web.close();
await runtime.close();
await bench.stop();
