import { parseArgs } from 'node:util';
import { renderMarkdown } from '../../src/blog/markdown.ts';
import { hashPassword } from '../../src/identity/passwords.ts';
import { openBenchDatabase } from './database.ts';

/**
 * `npm run bench:data -- --posts 100000 --comments 1000000 --products 10000`
 * Fills the benchmark database with set-based SQL (generate_series), rendering each distinct
 * Markdown body through the real renderer once.
 */
const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    comments: { type: 'string', default: '1000000' },
    products: { type: 'string', default: '10000' },
    'hot-post-comments': { type: 'string', default: '2000' },
    reset: { type: 'boolean', default: true },
  },
});
const counts = {
  posts: Number(values.posts),
  comments: Number(values.comments),
  products: Number(values.products),
  hot: Number(values['hot-post-comments']),
};
for (const [name, n] of Object.entries(counts)) {
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
}

const WORDS = (
  'design system postgres index query plan react router stream server render cache budget latency ' +
  'career remote mentoring podcast episode video tutorial typography colour contrast testing refactor ' +
  'checkout payment inventory product course book travel notebook habit focus writing editing ' +
  'kubernetes docker compose deploy backup restore metrics tracing logging security session token'
).split(' ');

function paragraph(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 31 + i * 17 + ((i * i) % 7)) % WORDS.length]);
  const text = out.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** An ~800-word Markdown body with headings, a list, a link and an image. */
function body(seed: number): string {
  const parts: string[] = [];
  for (let s = 0; s < 6; s++) {
    parts.push(`## ${paragraph(seed + s, 4).replace('.', '')}`);
    parts.push(paragraph(seed * 3 + s, 60));
    parts.push(paragraph(seed * 5 + s, 60));
    if (s === 2)
      parts.push('- first point\n- second point with **bold** text\n- [a link](https://example.com/)');
    if (s === 4) parts.push('![A diagram](/demo/code.svg)');
  }
  return parts.join('\n\n');
}

const started = performance.now();
const { db, url, stop } = await openBenchDatabase();
const log = (msg: string) =>
  process.stdout.write(`${((performance.now() - started) / 1000).toFixed(1)}s  ${msg}\n`);
log(`database ${url.replace(/:[^:@]*@/, ':***@')}`);

if (values.reset) {
  await db.raw(
    'TRUNCATE posts, comments, comment_likes, post_view_log, post_slug_history, products, cart_items, carts RESTART IDENTITY CASCADE',
  );
}
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

const bodies = Array.from({ length: 24 }, (_, i) => {
  const content = body(i + 1);
  return { i, content, html: renderMarkdown(content) };
});
await db.raw('CREATE TEMP TABLE bench_bodies (i int PRIMARY KEY, content text, html text)');
await db('bench_bodies').insert(bodies);
await db.raw(`CREATE TEMP TABLE bench_words (i int PRIMARY KEY, w text)`);
await db('bench_words').insert(WORDS.map((w, i) => ({ i, w })));
log(`rendered ${bodies.length} distinct bodies`);

const words = WORDS.length;
await db.raw(
  `INSERT INTO posts (title, slug, content, content_html, excerpt, category, tags, featured_image,
     youtube_video_id, podcast_url, status, published_at, author_id, view_count, created_at, updated_at)
   SELECT initcap(w1.w || ' ' || w2.w || ' ' || w3.w) || ' ' || g,
          w1.w || '-' || w2.w || '-' || w3.w || '-' || g,
          b.content, b.html,
          'Notes on ' || w1.w || ' and ' || w2.w || ', with lessons from ' || w3.w || ' work.',
          (ARRAY['Technology','Design','Tutorial','Life','Podcasts'])[1 + g % 5],
          ARRAY[w1.w, w3.w],
          CASE WHEN g % 3 = 0 THEN NULL ELSE '/demo/' || (ARRAY['code','design','workspace','travel','city','notebook'])[1 + g % 6] || '.svg' END,
          CASE WHEN g % 17 = 0 THEN 'dQw4w9WgXcQ' END,
          CASE WHEN g % 5 = 4 THEN '/demo/episode-1.wav' END,
          CASE WHEN g % 50 = 0 THEN 'draft' ELSE 'published' END,
          CASE WHEN g % 50 = 0 THEN NULL ELSE now() - make_interval(mins => g) END,
          ?, (g * 7919) % 5000,
          now() - make_interval(mins => g), now() - make_interval(mins => g)
   FROM generate_series(1, ?) g
   JOIN bench_bodies b ON b.i = g % 24
   JOIN bench_words w1 ON w1.i = (g * 7) % ${words}
   JOIN bench_words w2 ON w2.i = (g * 13 + 5) % ${words}
   JOIN bench_words w3 ON w3.i = (g * 29 + 11) % ${words}`,
  [author.id, counts.posts],
);
log(`${counts.posts} posts`);

if (counts.posts > 0 && counts.comments > 0) {
  const hot = Math.min(counts.hot, counts.comments);
  // The newest published post gets exactly `hot` approved comments: the benchmark's post page.
  await db.raw(
    `INSERT INTO comments (post_id, author, email, content, approved, likes, created_at)
     SELECT 1, 'Reader ' || g, 'reader' || g || '@example.com',
            'Thoughtful comment number ' || g || ' about this post.', true, g % 7, now() - make_interval(secs => g)
     FROM generate_series(1, ?) g`,
    [hot],
  );
  // The rest spread unevenly: low post ids get thousands, most posts a few.
  await db.raw(
    `INSERT INTO comments (post_id, author, email, content, approved, likes, created_at)
     SELECT 2 + floor(power(random(), 3) * (? - 2))::int, 'Reader ' || g, 'reader' || g || '@example.com',
            'Comment ' || g || ' with a little more text to look like real discussion.', random() < 0.9,
            (random() * 5)::int, now() - make_interval(secs => g)
     FROM generate_series(1, ?) g`,
    [Math.max(counts.posts, 3), counts.comments - hot],
  );
  log(`${counts.comments} comments (post 1 has ${hot})`);
}

await db.raw(
  `INSERT INTO products (name, description, price, image, category, stock, featured, status, created_at, updated_at)
   SELECT initcap(w1.w || ' ' || w2.w) || ' ' || g,
          'A ' || w1.w || ' product for people who care about ' || w2.w || '.',
          500 + (g * 137) % 49500,
          '/demo/' || (ARRAY['course','book','template','mug','tshirt','stickers'])[1 + g % 6] || '.svg',
          (ARRAY['Courses','Books','Digital','Merchandise','Physical'])[1 + g % 5],
          CASE WHEN g % 4 = 0 THEN NULL WHEN g % 10 = 1 THEN 0 WHEN g % 10 = 2 THEN 1 + g % 10 ELSE 10000 END,
          g % 40 = 0,
          CASE WHEN g % 25 = 0 THEN 'inactive' ELSE 'active' END,
          now() - make_interval(mins => g), now() - make_interval(mins => g)
   FROM generate_series(1, ?) g
   JOIN bench_words w1 ON w1.i = (g * 11) % ${words}
   JOIN bench_words w2 ON w2.i = (g * 19 + 3) % ${words}`,
  [counts.products],
);
log(`${counts.products} products`);

await db.raw('ANALYZE');
log('analyzed; done');
await stop();
