import { randomBytes } from 'node:crypto';
import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { LAST_LINE_SHORT, lastLineMessage } from '../../src/shop/stock.ts';
import { type BenchProduct, benchProduct } from './bench-product.ts';
import { BENCH_DATA_DIR, databaseCpu, openBenchDatabase } from './database.ts';

/**
 * `npm run bench:order-floor`: what PostgreSQL alone can do with the statements of one
 * product-drop order (the add to cart's and the checkout's, as `npm run bench:orders --sql` lists
 * them: same statements, transactions and parameters), sent by `--clients` raw pg connections
 * with no web process in between, each a new guest shopper per order. Every statement is a named
 * prepared statement, so this is the best these statements can do (a limited line's last
 * statement is the app's own message, lastLineMessage, as the app sends it). Also prints how the
 * PostgreSQL is configured and what one WAL-sized write + fdatasync costs on its disk. The rows
 * with synchronous_commit off are for comparison only (the app never turns it off): their
 * difference is the wait for the WAL's flush at each commit.
 */
const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '50' },
    orders: { type: 'string', default: '5000' },
  },
});
const CLIENTS = Number(values.clients);
const ORDERS = Number(values.orders);

const bench = await openBenchDatabase();
const { db } = bench;

const settings = await db.raw(
  `SELECT name, setting, unit FROM pg_settings WHERE name = ANY(?) ORDER BY name`,
  [
    [
      'server_version',
      'fsync',
      'synchronous_commit',
      'wal_sync_method',
      'full_page_writes',
      'commit_delay',
      'wal_buffers',
      'shared_buffers',
      'max_wal_size',
      'checkpoint_timeout',
      'max_connections',
      'wal_writer_delay',
    ],
  ],
);
process.stdout.write('PostgreSQL settings:\n');
for (const s of settings.rows as { name: string; setting: string; unit: string | null }[])
  process.stdout.write(`  ${s.name.padEnd(20)} ${s.setting}${s.unit ? ` (${s.unit})` : ''}\n`);

/** One 8 KB write and fdatasync, as a WAL flush of a small commit, on the database's own disk. */
function fsyncMicros(times = 300): number {
  const file = path.join(BENCH_DATA_DIR, 'fsync-probe');
  const fd = openSync(file, 'w');
  const page = randomBytes(8192);
  const started = process.hrtime.bigint();
  for (let i = 0; i < times; i++) {
    writeSync(fd, page, 0, page.length, 0);
    fdatasyncSync(fd);
  }
  const micros = Number(process.hrtime.bigint() - started) / 1000 / times;
  closeSync(fd);
  rmSync(file);
  return micros;
}
const fsyncUs = fsyncMicros();
process.stdout.write(
  `  8 KB write + fdatasync: ${fsyncUs.toFixed(0)} µs (at most ${Math.round(1e6 / fsyncUs)} flushes/s, each covering every commit waiting)\n\n`,
);

// Alike but for the stock, as the drop's: each sells one variant (Size: M).
const limited = await benchProduct(db, 'Bench floor, limited', ORDERS, {
  variant: true,
  description: 'The order floor.',
});
const unlimited = await benchProduct(db, 'Bench floor, unlimited', null, {
  variant: true,
  description: 'The order floor.',
});
const outboxBefore = Number((await db('outbox').max({ id: 'id' }).first())?.id ?? 0);

// The statements as the app sends them (see `npm run bench:orders -- --sql`).
const SQL = {
  add: `WITH product AS (
       SELECT p.id, p.status, s.stock, p.options->0->>'name' AS first_option,
              CASE WHEN CAST($1 AS int) = 0 THEN jsonb_array_length(p.options) = 0 ELSE v.id IS NOT NULL END AS chosen
       FROM products p
       LEFT JOIN product_variants v ON v.id = NULLIF(CAST($2 AS int), 0) AND v.product_id = p.id
       LEFT JOIN stock_levels s ON s.product_id = p.id AND s.variant_id = CAST($3 AS int)
       WHERE p.id = $4
     ), has AS (
       SELECT coalesce(sum(i.quantity), 0)::int AS quantity FROM cart_items i
       JOIN carts c ON c.id = i.cart_id
       WHERE c."session_id" = $5 AND i.product_id = $6 AND coalesce(i.variant_id, 0) = CAST($7 AS int)
     ), cart AS (
       INSERT INTO carts ("session_id") SELECT CAST($8 AS text) FROM product, has
       WHERE product.status = 'active' AND product.chosen
         AND (product.stock IS NULL OR has.quantity + CAST($9 AS int) <= product.stock)
       ON CONFLICT ("session_id") DO UPDATE SET updated_at = now()
       RETURNING id
     ), line AS (
       INSERT INTO cart_items (cart_id, product_id, variant_id, quantity)
       SELECT cart.id, CAST($10 AS int), NULLIF(CAST($11 AS int), 0), CAST($12 AS int) FROM cart
       ON CONFLICT (cart_id, product_id, (coalesce(variant_id, 0))) DO UPDATE
         SET quantity = cart_items.quantity + excluded.quantity, updated_at = now()
         WHERE (SELECT stock FROM product) IS NULL
           OR cart_items.quantity + excluded.quantity <= (SELECT stock FROM product)
       RETURNING id, quantity
     ), counted AS (
       INSERT INTO analytics_cart_adds (day, product_id, slot, adds)
       SELECT CAST($13 AS date), CAST($14 AS int), pg_backend_pid() % 16, 1 FROM line WHERE coalesce((SELECT analytics FROM blog_settings WHERE id = 1), true)
       ON CONFLICT (day, product_id, slot) DO UPDATE SET adds = analytics_cart_adds.adds + 1
     ), session AS (INSERT INTO sessions (sid, sess, expire)
     SELECT CAST($15 AS text), '{}'::jsonb, CAST($16 AS timestamptz) WHERE EXISTS (SELECT 1 FROM "line")
     ON CONFLICT (sid) DO NOTHING RETURNING sid)
     SELECT product.stock, product.status, product.first_option, product.chosen, line.id AS line_id, line.quantity,
            EXISTS (SELECT 1 FROM session) AS session_written
     FROM product CROSS JOIN has LEFT JOIN line ON true`,
  loadSession: `select "s"."sid", "s"."sess", "s"."expire", "s"."user_id", "u"."id" as "uid", "u"."email", "u"."username", "u"."first_name", "u"."last_name", "u"."role", CASE WHEN (CASE
  WHEN m.status = 'paid' AND (m.current_period_end IS NULL
    OR m.current_period_end > now() - interval '48 hours') THEN 'paid'
  WHEN m.status = 'comped' AND (m.comped_until IS NULL OR m.comped_until > now()) THEN 'comped'
  WHEN m.status = 'past_due' AND m.past_due_since > now() - interval '7 days' THEN 'past_due'
  ELSE 'free' END) = 'free' THEN NULL ELSE m.tier_id END AS paid_tier_id, CASE WHEN s.user_id IS NOT NULL THEN (SELECT coalesce(sum(i.quantity), 0) FROM cart_items i JOIN carts c ON c.id = i.cart_id
   JOIN products p ON p.id = i.product_id WHERE c.user_id = s.user_id AND p.status = 'active')
     ELSE (SELECT coalesce(sum(i.quantity), 0) FROM cart_items i JOIN carts c ON c.id = i.cart_id
   JOIN products p ON p.id = i.product_id WHERE c.session_id = s.sid AND p.status = 'active') END AS cart_count from "sessions" as "s" left join "users" as "u" on "u"."id" = "s"."user_id" left join "memberships" as "m" on "m"."user_id" = "s"."user_id" where "s"."sid" = $1 and "s"."expire" > CURRENT_TIMESTAMP limit $2`,
  context: `SELECT (select coalesce(bool_and(EXISTS (SELECT 1 FROM product_files f WHERE f.product_id = p.id)), false) from "cart_items" as "i" inner join "carts" as "c" on "c"."id" = "i"."cart_id" inner join "products" as "p" on "p"."id" = "i"."product_id" where "c"."session_id" = $1 and "p"."status" = $2) AS digital_only,
       (SELECT coalesce(json_agg(m ORDER BY m.position, m.id), '[]'::json) FROM (select "id", "name", "price", "free_over", "countries", "position" from "shipping_methods" order by "position" asc, "id" asc) m) AS shipping_methods,
       (SELECT row_to_json(s) FROM (select "payment_instructions", "payment_hold_minutes" from "blog_settings" where "id" = $3) s) AS payment,
       (SELECT coalesce(json_agg(t), '[]'::json) FROM (select "id", "country", "category", "rate_hundredths", "name" from "tax_rates" order by "country" asc, "category" asc nulls first) t) AS tax_rates,
       coalesce((SELECT prices_include_tax FROM blog_settings WHERE id = 1), false) AS prices_include_tax,
       coalesce((SELECT stripe_tax FROM blog_settings WHERE id = 1), false) AS stripe_tax`,
  rateLimit: `INSERT INTO "rate_limits" VALUES ($1, $2, $3)
              ON CONFLICT(key) DO UPDATE SET
                points = CASE
                          WHEN ("rate_limits".expire <= $4 OR 1=0) THEN $2
                          ELSE "rate_limits".points + ($2)
                         END,
                expire =  CASE
             WHEN "rate_limits".expire <= $4 THEN $3
             ELSE "rate_limits".expire
            END
            RETURNING points, expire;`,
  take: 'SELECT * FROM take_cart_lines($1, $2)',
  appended: `with "appended" as (insert into "order_events" ("data", "metadata", "order_id", "type", "version") values ($1, $2, $3, $4, $5) on conflict ("order_id", "version") do nothing returning "order_id", "version", "type", "data", "metadata", "created_at"), "projected" as (insert into "orders" ("address", "checkout_session_id", "city", "confirmation_sent", "country", "created_at", "discount_amount", "discount_code", "email", "first_name", "hold_until", "id", "idempotency_key", "invoice_number", "last_name", "notes", "paid_amount", "payment_method", "payment_reference", "payment_status", "phone", "postal_code", "refund_needed", "refunded_amount", "refunded_tax", "session_id", "shipping_cost", "shipping_method", "status", "tax_amount", "tax_included", "total_amount", "tracking_number", "updated_at", "user_id", "version") values ($6, $7, $8, $9, $10, date_trunc('milliseconds', now()), $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, date_trunc('milliseconds', now()), $38, $39)), "lines" as (insert into "order_items" ("created_at", "id", "order_id", "price_at_time", "product_id", "product_name", "quantity", "tax_amount", "updated_at", "variant", "variant_id") values (date_trunc('milliseconds', now()), $40, $41, $42, (SELECT id FROM products WHERE id = $43), $44, $45, $46, date_trunc('milliseconds', now()), $47, $48)), "jobs" as (INSERT INTO outbox (queue, job_name, payload, job_id, run_at)
     SELECT * FROM (VALUES ($49, $50, $51::jsonb, $52, $53::timestamptz), ($54, $55, $56::jsonb, $57, $58::timestamptz)) AS v
     WHERE EXISTS (SELECT 1 FROM "appended")) select "order_id", "version", "type", "data", "metadata", "created_at" from "appended"`,
};
type Name = keyof typeof SQL;

const HOLD_MS = 3 * 24 * 60 * 60 * 1000;
let shopper = 0;

/** One new guest shopper's order: the add to cart's statement, then the checkout's seven. */
async function order(client: pg.Client, { productId, variantId }: BenchProduct): Promise<boolean> {
  const q = (name: Name, args: unknown[]) =>
    client.query({ name: `floor_${name}`, text: SQL[name], values: args });
  const n = ++shopper;
  const sid = randomBytes(32).toString('base64url');
  const now = new Date();
  const day = now.toISOString().slice(0, 10);
  const v = variantId ?? 0;
  // The line, the analytics count and the new guest's session.
  const added = await q('add', [
    v,
    v,
    v,
    productId,
    sid,
    productId,
    v,
    sid,
    1,
    productId,
    v,
    1,
    day,
    productId,
    sid,
    new Date(now.getTime() + 365 * 86_400_000),
  ]);
  if (added.rows[0]?.line_id == null) return false;

  await q('loadSession', [sid, 1]);
  await q('context', [sid, 'active', 1]);
  await q('rateLimit', [`checkout:floor-${process.pid}-${n}`, 1, Date.now() + 60_000, Date.now()]);
  await client.query('BEGIN');
  const { rows } = await q('take', [null, sid]);
  const line = rows[0] as {
    name: string;
    price: number;
    stock: number | null;
    variant: string | null;
    order_id: number;
    line_id: number;
  };
  const holdUntil = new Date(Date.now() + HOLD_MS).toISOString();
  const key = `floor-${process.pid}-${n}`;
  const data = {
    userId: null,
    sessionId: sid,
    email: 'bench@example.com',
    firstName: 'Bench',
    lastName: 'Shopper',
    phone: null,
    address: '1 Benchmark Road',
    city: 'Loadville',
    postalCode: '12345',
    country: 'US',
    shippingMethod: 'Standard',
    shippingCost: 0,
    notes: null,
    idempotencyKey: key,
    items: [
      {
        lineId: line.line_id,
        productId,
        ...(variantId === null ? {} : { variantId, variant: line.variant }),
        productName: line.name,
        quantity: 1,
        priceAtTime: line.price,
      },
    ],
    totalAmount: line.price,
    holdUntil,
    currency: 'usd',
  };
  const payload = JSON.stringify({ orderId: line.order_id });
  // The event, its projection (the order and its line) and the order's jobs in the outbox.
  await q('appended', [
    JSON.stringify(data),
    JSON.stringify({ requestId: randomBytes(16).toString('hex'), via: 'header' }),
    line.order_id,
    'OrderPlaced',
    1,
    // orders: address … version, in the statement's column order
    '1 Benchmark Road',
    null,
    'Loadville',
    false,
    'US',
    0,
    null,
    'bench@example.com',
    'Bench',
    holdUntil,
    line.order_id,
    key,
    null,
    'Shopper',
    null,
    0,
    null,
    null,
    'unpaid',
    null,
    '12345',
    false,
    0,
    0,
    sid,
    0,
    'Standard',
    'pending',
    0,
    false,
    line.price,
    null,
    null,
    1,
    // order_items
    line.line_id,
    line.order_id,
    line.price,
    productId,
    line.name,
    1,
    0,
    line.variant,
    variantId,
    // outbox
    'orders',
    'orders.expire',
    payload,
    `order-expire-${line.order_id}`,
    holdUntil,
    'orders',
    'orders.send-confirmation',
    payload,
    `order-confirmation-${line.order_id}`,
    null,
  ]);
  // Unlimited stock takes nothing (the app reads which from the take's row); a limited line is
  // taken and the order committed by the app's own message, then the transaction after it.
  if (line.stock !== null) {
    const priced = { name: line.name, price: line.price, variant: line.variant };
    const short = await client
      .query(lastLineMessage({ productId, variantId, quantity: 1 }, priced))
      .then(() => false)
      .catch((error: { code?: string }) => {
        if (error.code === LAST_LINE_SHORT) return true;
        throw error;
      });
    if (short) {
      await client.query('ROLLBACK');
      return false;
    }
  }
  await client.query('COMMIT');
  return true;
}

async function run(label: string, product: BenchProduct, synchronousCommit: 'on' | 'off') {
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new pg.Client({ connectionString: bench.url });
      await client.connect();
      await client.query(`SET synchronous_commit = ${synchronousCommit}`);
      return client;
    }),
  );
  // Warm: each connection prepares its statements on an order of the unlimited product, not counted.
  await Promise.all(clients.map((client) => order(client, unlimited)));
  const latencies: number[] = [];
  let placed = 0;
  let left = ORDERS;
  const database = await databaseCpu();
  const cpu = process.threadCpuUsage();
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (left-- > 0) {
        const t = performance.now();
        if (await order(client, product)) placed++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.threadCpuUsage(cpu);
  const after = await databaseCpu();
  const databaseMs = after.total - database.total;
  const backgroundMs = after.background - database.background;
  await Promise.all(clients.map((client) => client.end()));
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  process.stdout.write(
    `${label.padEnd(44)}${String(placed).padStart(7)}${(placed / seconds).toFixed(0).padStart(10)}${at(0.5).toFixed(1).padStart(9)}${at(0.99).toFixed(1).padStart(9)}${(databaseMs / ORDERS).toFixed(2).padStart(12)}${(backgroundMs / ORDERS).toFixed(2).padStart(12)}${((used.user + used.system) / 1000 / ORDERS).toFixed(2).padStart(12)}\n`,
  );
}

process.stdout.write(
  `${`${CLIENTS} clients, ${ORDERS} orders each run`.padEnd(44)}${'orders'.padStart(7)}${'orders/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'PG CPU ms'.padStart(12)}${'of it bg'.padStart(12)}${'driver ms'.padStart(12)}\n`,
);
await run(`variant's stock ${ORDERS} (one row every order decrements)`, limited, 'on');
await run('variant unlimited', unlimited, 'on');
await benchProduct(db, 'Bench floor, limited', ORDERS, { variant: true });
await run(`variant's stock ${ORDERS}, synchronous_commit off`, limited, 'off');
await run('variant unlimited, synchronous_commit off', unlimited, 'off');

// No worker relays these orders' jobs: they would wait for the next bench's.
await db('outbox').where('id', '>', outboxBefore).delete();
await bench.stop();
