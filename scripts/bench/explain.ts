import { parseArgs } from 'node:util';
import { listPosts } from '../../src/blog/posts.ts';
import { openBenchDatabase } from './database.ts';
import { explainHotQueries, hotQueries, LARGE_TABLE_ROWS, pickSample } from './hot-queries.ts';

/**
 * `npm run bench:explain [-- --plans]`: EXPLAIN (ANALYZE, BUFFERS) of the hot queries on the
 * benchmark database (npm run bench:data). Fails when one reads a large table by Seq Scan.
 * Also times searches (the budget: p95 under 50 ms of server time over 100,000 posts).
 */
const { values } = parseArgs({ options: { plans: { type: 'boolean', default: false } } });

const bench = await openBenchDatabase();
const { db } = bench;
try {
  const posts = Number((await db('post_counts').sum({ n: 'n' }).first())?.n ?? 0);
  const sample = await pickSample(db);
  const explained = await explainHotQueries(db, hotQueries(sample));
  process.stdout.write(
    `\nHot queries on ${posts} posts (Seq Scans checked on tables of ${LARGE_TABLE_ROWS}+ rows)\n\n`,
  );
  let failures = 0;
  for (const query of explained) {
    for (const [i, statement] of query.statements.entries()) {
      const bad = statement.largeSeqScans.length > 0;
      if (bad) failures++;
      const label = query.statements.length > 1 ? `${query.name} [${i + 1}]` : query.name;
      process.stdout.write(
        `${bad ? 'FAIL' : 'ok  '}  ${label.padEnd(38)}${statement.executionMs.toFixed(2).padStart(9)} ms${
          bad ? `   Seq Scan on ${statement.largeSeqScans.join(', ')}` : ''
        }\n`,
      );
      if (bad || values.plans) process.stdout.write(`\n${statement.sql}\n${statement.plan}\n\n`);
    }
  }

  // Search as a reader's request makes it (rows and count), over a mix of common, rare and prefix terms.
  const terms = [
    'postgres index',
    'kube',
    'garden river',
    'session token',
    sample.rareWord,
    'habit',
    'mount',
    'zzzz',
  ];
  const timings: number[] = [];
  for (let round = 0; round < 10; round++) {
    for (const search of terms) {
      const started = performance.now();
      await listPosts(db, { search, limit: 12 });
      timings.push(performance.now() - started);
    }
  }
  timings.sort((a, b) => a - b);
  const pct = (p: number) => timings[Math.min(timings.length - 1, Math.floor((p / 100) * timings.length))];
  process.stdout.write(
    `\nSearch (${timings.length} searches, ${terms.length} terms): p50 ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms, max ${pct(100).toFixed(1)} ms — budget p95 < 50 ms: ${pct(95) < 50 ? 'met' : 'MISSED'}\n`,
  );
  if (failures) {
    process.stdout.write(`\n${failures} hot statement(s) read a large table by Seq Scan.\n`);
    process.exitCode = 1;
  }
} finally {
  await bench.stop();
}
