import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { renderMarkdown } from '../../src/blog/markdown.ts';
import { RECOUNT_SQL } from '../../src/db/counts.ts';
import { hashPassword } from '../../src/identity/passwords.ts';
import { evolve, initialOrderState, type OrderEvent, type OrderLine } from '../../src/orders/domain.ts';
import { openBenchDatabase } from './database.ts';

/**
 * `npm run bench:data -- --posts 100000 --comments 1000000 --products 10000 --orders 100000`
 * Fills the benchmark database with COPY, in chunks over two connections, with triggers off and
 * the plain indexes dropped meanwhile (rebuilt at the end, then the counts tables recounted).
 * Each distinct Markdown body goes through the real renderer, and its search vector through
 * PostgreSQL, once; orders are written as events plus the projections the event store would make
 * of them (so `npm run orders:rebuild` reproduces them). Needs a superuser (triggers off): the
 * embedded database's is.
 */
const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    comments: { type: 'string', default: '1000000' },
    products: { type: 'string', default: '10000' },
    orders: { type: 'string', default: '100000' },
    'hot-post-comments': { type: 'string', default: '2000' },
    'distinct-bodies': { type: 'string', default: '200' },
    /** A year of analytics rollups: this many posts read every hour, 1 million views a day in all. */
    'analytics-paths': { type: 'string', default: '500' },
    'analytics-views-per-day': { type: 'string', default: '1000000' },
  },
});
const counts = {
  posts: Number(values.posts),
  comments: Number(values.comments),
  products: Number(values.products),
  orders: Number(values.orders),
  hot: Number(values['hot-post-comments']),
  bodies: Number(values['distinct-bodies']),
  analyticsPaths: Number(values['analytics-paths']),
  viewsPerDay: Number(values['analytics-views-per-day']),
};
for (const [name, n] of Object.entries(counts)) {
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
}
counts.bodies = Math.max(counts.bodies, 1);

/** A small deterministic generator, so two runs make the same data set. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'design system postgres index query plan react router stream server render cache budget latency ' +
  'career remote mentoring podcast episode video tutorial typography colour contrast testing refactor ' +
  'checkout payment inventory product course book travel notebook habit focus writing editing ' +
  'kubernetes docker compose deploy backup restore metrics tracing logging security session token ' +
  'garden kitchen bicycle mountain river harbour library museum festival market village orchard ' +
  'winter summer autumn spring morning evening weekend holiday journey lesson mistake success'
).split(' ');
const CATEGORIES = ['Technology', 'Design', 'Tutorial', 'Life', 'Podcasts'];
const IMAGES = ['code-sql', 'design', 'tools', 'morning', 'city', 'markdown'];
const PRODUCT_CATEGORIES = ['Courses', 'Books', 'Digital', 'Merchandise', 'Physical'];
const PRODUCT_IMAGES = ['course-postgres', 'book', 'template', 'mug', 'tshirt', 'stickers'];

function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]);
  const text = out.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** An ~800-word Markdown body: headings, paragraphs, a list, a link, an image, some inline HTML. */
function body(seed: number): string {
  const random = rng(seed);
  const parts: string[] = [];
  for (let s = 0; s < 6; s++) {
    parts.push(`## ${sentence(random, 4).slice(0, -1)}`);
    parts.push(sentence(random, 62));
    parts.push(sentence(random, 62));
    if (s === 2)
      parts.push('- first point\n- second point with **bold** text\n- [a link](https://example.com/)');
    if (s === 3) parts.push(`Some <u>underlined</u> and <span style="color: #2563eb">blue</span> words.`);
    if (s === 4) parts.push(`![A diagram](/demo/${IMAGES[seed % IMAGES.length]}.svg)`);
  }
  return parts.join('\n\n');
}

/** One value in COPY's text format. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return field(`{${value.map((v) => `"${String(v).replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
  return String(value).replace(/[\\\n\r\t]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t',
  );
}

const started = performance.now();
const log = (msg: string) =>
  process.stdout.write(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)}s  ${msg}\n`);

const bench = await openBenchDatabase();
const { db, url } = bench;
log(`database ${url.replace(/:[^:@]*@/, ':***@')}`);

/**
 * Connections without the app's statement timeout, with triggers off (the counts are recounted
 * at the end; the data is consistent by construction) and commits that need not wait for disk.
 */
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'penstand-bench-data' });
  await client.connect();
  await client.query(`SET synchronous_commit = off; SET session_replication_role = replica;
    SET maintenance_work_mem = '256MB'; SET statement_timeout = 0`);
  return client;
}
const clients = [await connect(), await connect()];
const [main] = clients;

const BULK_TABLES = ['posts', 'comments', 'products', 'orders', 'order_items', 'order_events'];
// Plain indexes (not those behind a constraint) are rebuilt after the load, which is much faster
// than keeping them up to date row by row. Their definitions are kept in a table first, so a run
// that dies midway gives them back at the start of the next.
await main.query(
  `CREATE TABLE IF NOT EXISTS bench_saved_indexes (name text PRIMARY KEY, definition text NOT NULL)`,
);
async function restoreIndexes(): Promise<void> {
  const { rows } = await main.query<{ name: string; definition: string }>(
    'SELECT name, definition FROM bench_saved_indexes',
  );
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (next < rows.length) {
        const { name, definition } = rows[next++];
        await client.query(definition.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
        await client.query('DELETE FROM bench_saved_indexes WHERE name = $1', [name]);
      }
    }),
  );
}
await restoreIndexes();
await main.query(
  `INSERT INTO bench_saved_indexes (name, definition)
   SELECT i.indexname, i.indexdef FROM pg_indexes i
   WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
     AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
  [BULK_TABLES],
);
const { rows: dropping } = await main.query<{ name: string }>('SELECT name FROM bench_saved_indexes');
for (const { name } of dropping) await main.query(`DROP INDEX ${pg.escapeIdentifier(name)}`);

/** COPYs rows [from, to) made by `row`, in chunks spread over both connections. */
async function copyRows(
  table: string,
  columns: string[],
  total: number,
  chunk: number,
  row: (i: number) => unknown[],
): Promise<void> {
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (next < total) {
        const from = next;
        const to = Math.min(from + chunk, total);
        next = to;
        const lines = function* () {
          let batch = '';
          for (let i = from; i < to; i++) {
            batch += `${row(i).map(field).join('\t')}\n`;
            if (batch.length > 1 << 20) {
              yield batch;
              batch = '';
            }
          }
          if (batch) yield batch;
        };
        const sql = `COPY ${table} (${columns.join(', ')}) FROM STDIN`;
        await pipeline(Readable.from(lines()), client.query(copyFrom(sql)));
      }
    }),
  );
}

// What earlier benchmarks left goes too (a drop's guests: their carts, sessions and rate-limit
// counters), so that every bench starts from the same database.
await db.raw(
  `TRUNCATE posts, comments, comment_likes, post_view_log, post_slug_history, products, cart_items, carts,
     order_items, orders, order_events, outbox, sessions, rate_limits RESTART IDENTITY CASCADE`,
);
await db.raw('ALTER SEQUENCE order_ids RESTART');
let author = await db('users').where({ email: 'bench-author@penstand.local' }).first('id');
if (!author) {
  [author] = await db('users')
    .insert({
      email: 'bench-author@penstand.local',
      username: 'bench_author',
      password_hash: await hashPassword('Bench-passw0rd!'),
      role: 'admin',
      email_verified: true,
      first_name: 'Bench',
      last_name: 'Author',
    })
    .returning('id');
}

const bodies = Array.from({ length: counts.bodies }, (_, i) => {
  const content = body(i + 1);
  return { content, html: renderMarkdown(content) };
});
// Each body's search vector is made once too; a post's is its title's and excerpt's joined to it,
// the same lexemes the posts_search trigger makes from the whole text.
await main.query(`DROP TABLE IF EXISTS bench_bodies, bench_posts;
  CREATE UNLOGGED TABLE bench_bodies (i int PRIMARY KEY, content text NOT NULL, html text NOT NULL, vector tsvector)`);
await copyRows('bench_bodies', ['i', 'content', 'html'], bodies.length, 1_000, (i) => [
  i,
  bodies[i].content,
  bodies[i].html,
]);
await main.query(`UPDATE bench_bodies SET vector = strip(to_tsvector('english', content))`);
log(`rendered ${bodies.length} distinct bodies`);

const now = Date.now();
const minutesAgo = (n: number) => new Date(now - n * 60_000);
// Post 1 is the newest; every 50th post is a draft. The rows go to a staging table first, then
// join their body in chunks of set-based inserts.
await main.query(`CREATE UNLOGGED TABLE bench_posts (
  id int, title text, slug text, body int, excerpt text, category text, tags text[], featured_image text,
  youtube_video_id text, podcast_url text, status text, published_at timestamptz, author_id int,
  view_count int, created_at timestamptz, updated_at timestamptz)`);
await copyRows(
  'bench_posts',
  [
    'id',
    'title',
    'slug',
    'body',
    'excerpt',
    'category',
    'tags',
    'featured_image',
    'youtube_video_id',
    'podcast_url',
    'status',
    'published_at',
    'author_id',
    'view_count',
    'created_at',
    'updated_at',
  ],
  counts.posts,
  20_000,
  (i) => {
    const g = i + 1;
    const random = rng(g);
    const [w1, w2, w3] = [0, 1, 2].map(() => WORDS[Math.floor(random() * WORDS.length)]);
    const draft = g % 50 === 0;
    const category = CATEGORIES[g % CATEGORIES.length];
    return [
      g,
      `${w1[0].toUpperCase()}${w1.slice(1)} ${w2} and ${w3}, part ${g}`,
      `${w1}-${w2}-and-${w3}-part-${g}`,
      g % bodies.length,
      `Notes on ${w1} and ${w2}, with lessons from ${w3} work.`,
      category,
      [w1, w3],
      g % 3 === 0 ? null : `/demo/${IMAGES[g % IMAGES.length]}.svg`,
      g % 17 === 0 ? 'dQw4w9WgXcQ' : null,
      category === 'Podcasts' ? '/demo/episode-1.wav' : null,
      draft ? 'draft' : 'published',
      draft ? null : minutesAgo(g * 7),
      author.id,
      Math.floor(random() * 5000),
      minutesAgo(g * 7),
      minutesAgo(g * 7),
    ];
  },
);
const POST_CHUNK = 10_000;
let nextPost = 0;
await Promise.all(
  clients.map(async (client) => {
    while (nextPost < counts.posts) {
      const from = nextPost;
      nextPost += POST_CHUNK;
      await client.query(
        `INSERT INTO posts (id, title, slug, content, content_html, search, excerpt, category, tags, featured_image,
           youtube_video_id, podcast_url, status, published_at, author_id, view_count, created_at, updated_at)
         SELECT s.id, s.title, s.slug, b.content, b.html,
                strip(to_tsvector('english', s.title || ' ' || s.excerpt)) || b.vector,
                s.excerpt, s.category, s.tags, s.featured_image, s.youtube_video_id, s.podcast_url, s.status,
                s.published_at, s.author_id, s.view_count, s.created_at, s.updated_at
         FROM bench_posts s JOIN bench_bodies b ON b.i = s.body
         WHERE s.id > $1 AND s.id <= $2`,
        [from, from + POST_CHUNK],
      );
    }
  }),
);
await main.query(`SELECT setval('posts_id_seq', greatest($1::int, 1))`, [counts.posts]);
await main.query('DROP TABLE bench_posts, bench_bodies');
log(`${counts.posts} posts`);

if (counts.posts > 0 && counts.comments > 0) {
  const hot = Math.min(counts.hot, counts.comments);
  const others = Math.max(counts.posts - 1, 1);
  const random = rng(7);
  // Post 1 (the benchmark's post page) gets exactly `hot` approved comments; the rest spread
  // unevenly: the lowest ids get thousands, most posts a handful or none.
  await copyRows(
    'comments',
    ['post_id', 'author', 'email', 'content', 'approved', 'likes', 'created_at', 'updated_at'],
    counts.comments,
    50_000,
    (i) => {
      const isHot = i < hot || counts.posts === 1;
      const postId = isHot ? 1 : 2 + Math.floor(random() ** 3 * (others - 1));
      const at = new Date(now - (counts.comments - i) * 1000);
      return [
        postId,
        `Reader ${i}`,
        `reader${i}@example.com`,
        isHot
          ? `Thoughtful comment number ${i} about this post.`
          : `Comment ${i}: ${sentence(random, 8 + Math.floor(random() * 30))}`,
        isHot || random() < 0.9,
        Math.floor(random() * 6),
        at,
        at,
      ];
    },
  );
  log(`${counts.comments} comments (post 1 has ${hot})`);
}

await copyRows(
  'products',
  ['name', 'description', 'price', 'image', 'category', 'featured', 'status', 'created_at', 'updated_at'],
  counts.products,
  5_000,
  (i) => {
    const g = i + 1;
    const random = rng(1_000_000 + g);
    const [w1, w2] = [0, 1].map(() => WORDS[Math.floor(random() * WORDS.length)]);
    return [
      `${w1[0].toUpperCase()}${w1.slice(1)} ${w2} ${g}`,
      `A ${w1} product for people who care about ${w2}. ${sentence(random, 30)}`,
      500 + ((g * 137) % 49_500),
      `/demo/${PRODUCT_IMAGES[g % PRODUCT_IMAGES.length]}.svg`,
      PRODUCT_CATEGORIES[g % PRODUCT_CATEGORIES.length],
      g % 40 === 0,
      g % 25 === 0 ? 'inactive' : 'active',
      minutesAgo(g),
      minutesAgo(g),
    ];
  },
);
// Their stock rows (ids start at 1 after the TRUNCATE): a quarter unlimited, some sold out or low.
await db.raw(
  `INSERT INTO stock_levels (product_id, stock)
   SELECT id, CASE WHEN id % 4 = 0 THEN NULL WHEN id % 10 = 1 THEN 0 WHEN id % 10 = 2 THEN 1 + id % 10 ELSE 10000 END
   FROM products`,
);
log(`${counts.products} products`);

if (counts.orders > 0 && counts.products > 0) {
  // Each order: its events, folded with the domain's own evolve into the orders row the store
  // would project. Lines get ids in order, as the store's sequence would hand them out.
  type Built = { events: OrderEvent[]; at: Date[]; lines: OrderLine[]; placedAt: Date };
  const build = (g: number): Built => {
    const random = rng(2_000_000 + g);
    const lines: OrderLine[] = [];
    const n = 1 + Math.floor(random() * 3);
    for (let k = 0; k < n; k++) {
      const productId = 1 + Math.floor(random() * counts.products);
      lines.push({
        lineId: 0,
        productId,
        productName: `Product ${productId}`,
        quantity: 1 + Math.floor(random() * 3),
        priceAtTime: 500 + ((productId * 137) % 49_500),
      });
    }
    const placedAt = new Date(now - (counts.orders - g) * 300_000);
    const events: OrderEvent[] = [
      {
        type: 'OrderPlaced',
        data: {
          userId: null,
          sessionId: null,
          email: `shopper${g}@example.com`,
          firstName: 'Bench',
          lastName: `Shopper ${g}`,
          phone: null,
          address: `${g} Benchmark Road`,
          city: 'Loadville',
          postalCode: String(10_000 + (g % 89_999)),
          country: 'US',
          shippingMethod: 'standard',
          notes: null,
          idempotencyKey: `bench-${g}`,
          items: lines,
          totalAmount: lines.reduce((sum, l) => sum + l.quantity * l.priceAtTime, 0),
        },
      },
      { type: 'ConfirmationEmailSent', data: { to: `shopper${g}@example.com` } },
    ];
    const roll = random();
    if (roll < 0.05) events.push({ type: 'OrderCancelled', data: { reason: null, refunded: false } });
    else if (roll < 0.7) {
      events.push({ type: 'PaymentRecorded', data: {} });
      if (roll < 0.5) events.push({ type: 'OrderShipped', data: { trackingNumber: `TRK${g}` } });
      if (roll < 0.3) events.push({ type: 'OrderDelivered', data: {} });
    }
    const at = events.map((_, k) => new Date(placedAt.getTime() + k * 3_600_000));
    return { events, at, lines, placedAt };
  };
  // Line ids depend on every earlier order's line count: fix them in one pass.
  const lineStart = new Int32Array(counts.orders + 1);
  for (let g = 1; g <= counts.orders; g++) lineStart[g] = lineStart[g - 1] + build(g).lines.length;
  const built = (g: number): Built => {
    const b = build(g);
    b.lines.forEach((line, k) => {
      line.lineId = lineStart[g - 1] + k + 1;
    });
    return b;
  };
  // The events first (the source of truth), then the projections.
  const eventRows: unknown[][] = [];
  const orderRows: unknown[][] = [];
  const itemRows: unknown[][] = [];
  for (let g = 1; g <= counts.orders; g++) {
    const { events, at, lines, placedAt } = built(g);
    let state = initialOrderState;
    events.forEach((event, k) => {
      state = evolve(state, event);
      eventRows.push([g, k + 1, event.type, JSON.stringify(event.data), '{}', at[k]]);
    });
    const o = state.placed;
    if (!o) continue;
    const last = at[at.length - 1];
    orderRows.push([
      g,
      null,
      null,
      o.email,
      o.firstName,
      o.lastName,
      null,
      o.address,
      o.city,
      o.postalCode,
      o.country,
      o.totalAmount,
      state.status,
      state.paymentStatus,
      o.shippingMethod,
      state.trackingNumber,
      null,
      o.idempotencyKey,
      state.confirmationSent,
      state.version,
      placedAt,
      last,
    ]);
    for (const line of lines)
      itemRows.push([
        line.lineId,
        g,
        line.productId,
        line.quantity,
        line.priceAtTime,
        line.productName,
        placedAt,
        placedAt,
      ]);
  }
  await copyRows(
    'order_events',
    ['order_id', 'version', 'type', 'data', 'metadata', 'created_at'],
    eventRows.length,
    50_000,
    (i) => eventRows[i],
  );
  await copyRows(
    'orders',
    [
      'id',
      'user_id',
      'session_id',
      'email',
      'first_name',
      'last_name',
      'phone',
      'address',
      'city',
      'postal_code',
      'country',
      'total_amount',
      'status',
      'payment_status',
      'shipping_method',
      'tracking_number',
      'notes',
      'idempotency_key',
      'confirmation_sent',
      'version',
      'created_at',
      'updated_at',
    ],
    orderRows.length,
    50_000,
    (i) => orderRows[i],
  );
  await copyRows(
    'order_items',
    ['id', 'order_id', 'product_id', 'quantity', 'price_at_time', 'product_name', 'created_at', 'updated_at'],
    itemRows.length,
    50_000,
    (i) => itemRows[i],
  );
  await db.raw(`SELECT setval('order_ids', ?)`, [counts.orders]);
  await db.raw(`SELECT setval('order_items_id_seq', ?)`, [Math.max(itemRows.length, 1)]);
  log(`${counts.orders} orders (${eventRows.length} events, ${itemRows.length} lines)`);
}

// A year of rollups, as the views job would have written them: the hourly rows of the most read
// posts and products (their share falling with rank), and the daily tables.
await main.query(
  `TRUNCATE analytics_hourly, analytics_paths_daily, analytics_daily, analytics_referrers, analytics_devices, analytics_countries,
     analytics_cart_adds, analytics_seen, analytics_salts, order_sources`,
);
const readPosts = Math.min(counts.analyticsPaths, counts.posts);
const readProducts = Math.min(Math.ceil(counts.analyticsPaths / 10), counts.products);
await main.query(
  `INSERT INTO analytics_hourly (hour, path, post_id, product_id, views, visitors)
   SELECT h, '/post/' || p.slug, p.id, NULL, v, greatest(1, v * 2 / 3)
   FROM generate_series(date_trunc('hour', now()) - interval '365 days', date_trunc('hour', now()), interval '1 hour') AS h
   CROSS JOIN (SELECT id, slug, row_number() OVER (ORDER BY id) AS rank FROM posts ORDER BY id LIMIT $1) p
   CROSS JOIN LATERAL (SELECT greatest(1, ($2::int / 24 / p.rank * (0.5 + random()))::int / 4) AS v) views
   UNION ALL
   SELECT h, '/product/' || p.id, NULL, p.id, v, greatest(1, v * 2 / 3)
   FROM generate_series(date_trunc('hour', now()) - interval '365 days', date_trunc('hour', now()), interval '1 hour') AS h
   CROSS JOIN (SELECT id, row_number() OVER (ORDER BY id) AS rank FROM products ORDER BY id LIMIT $3) p
   CROSS JOIN LATERAL (SELECT greatest(1, ($2::int / 240 / p.rank * (0.5 + random()))::int) AS v) views`,
  [readPosts, counts.viewsPerDay, readProducts],
);
await main.query(
  `INSERT INTO analytics_paths_daily (day, path, post_id, product_id, views, visitors)
   SELECT (hour AT TIME ZONE 'UTC')::date, path, min(post_id), min(product_id), sum(views), sum(visitors)
   FROM analytics_hourly GROUP BY 1, 2`,
);
const DAYS = `generate_series(current_date - 365, current_date, interval '1 day') AS d`;
for (const [sql, params] of [
  [
    `INSERT INTO analytics_daily (day, views, visitors)
     SELECT d, v, v * 2 / 5 FROM ${DAYS}, LATERAL (SELECT ($1::int * (0.8 + random() * 0.4))::int AS v) views`,
    [counts.viewsPerDay],
  ],
  [
    `INSERT INTO analytics_referrers (day, source, views)
     SELECT d, s, ($1::int / 8 * random())::int FROM ${DAYS},
       unnest(ARRAY['direct', 'internal', 'Google', 'Bing', 'DuckDuckGo', 'X', 'Reddit', 'news.ycombinator.com']) AS s`,
    [counts.viewsPerDay],
  ],
  [
    `INSERT INTO analytics_devices (day, device, views)
     SELECT d, s, ($1::int / 3 * random())::int FROM ${DAYS}, unnest(ARRAY['mobile', 'tablet', 'desktop']) AS s`,
    [counts.viewsPerDay],
  ],
  [
    `INSERT INTO analytics_countries (day, country, views)
     SELECT d, s, ($1::int / 10 * random())::int FROM ${DAYS},
       unnest(ARRAY['US', 'DE', 'FR', 'GB', 'NL', 'IN', 'BR', 'JP', 'CA', 'ES']) AS s`,
    [counts.viewsPerDay],
  ],
  [
    `INSERT INTO analytics_cart_adds (day, product_id, adds)
     SELECT d, p.id, (10 * random())::int + 1 FROM ${DAYS}, (SELECT id FROM products ORDER BY id LIMIT $1) p`,
    [readProducts],
  ],
] as const) {
  await main.query(sql, [...params]);
}
// One order in five credited to one of the most read posts.
await main.query(
  `INSERT INTO order_sources (order_id, post_id)
   SELECT o.id, (SELECT id FROM posts ORDER BY id LIMIT 1 OFFSET (o.id % greatest($1::int, 1)))
   FROM orders o WHERE o.id % 5 = 0 AND $1::int > 0`,
  [readPosts],
);
log(`a year of analytics rollups (${readPosts} posts and ${readProducts} products read every hour)`);

await restoreIndexes();
log('indexes rebuilt');
// The counts the triggers would have kept, had they been on.
await main.query(`${RECOUNT_SQL}
  DROP TABLE bench_saved_indexes`);
log('counts recounted');
// Vacuumed so the visibility map lets index-only scans skip the heap, as on a settled site.
await main.query('VACUUM (ANALYZE)');
await Promise.all(clients.map((client) => client.end()));
log('vacuumed and analyzed; done');
await bench.stop();
