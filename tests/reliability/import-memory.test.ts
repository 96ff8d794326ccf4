import { once } from 'node:events';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptCommand } from '../../scripts/start-web-command.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { WXR_FIXTURE } from '../support/import-fixtures.ts';
import { startProcess } from '../support/process.ts';

const FIXTURE = WXR_FIXTURE;
const TARGET_BYTES = 100 * 1024 * 1024;

let database: TestDatabase;
let dir: string;

/**
 * A WXR file of about 100 MB made of copies of the fixture's items, each copy with its own post,
 * comment and attachment ids and slugs, so every copy imports as new posts.
 */
async function writeLargeWxr(file: string): Promise<{ copies: number; posts: number }> {
  const text = readFileSync(FIXTURE, 'utf8');
  const first = text.indexOf('<item>');
  const last = text.lastIndexOf('</item>') + '</item>'.length;
  const items = text.slice(first, last);
  const postsPerCopy = (items.match(/<wp:post_type><!\[CDATA\[(post|page)\]\]>/g) ?? []).length;
  const out = createWriteStream(file);
  out.write(text.slice(0, first));
  let written = first;
  let copies = 0;
  while (written < TARGET_BYTES) {
    copies++;
    const offset = copies * 100_000;
    const copy = items
      .replace(
        /<wp:(post_id|comment_id)>(\d+)</g,
        (_, tag: string, id: string) => `<wp:${tag}>${Number(id) + offset}<`,
      )
      .replace(
        /<wp:post_name><!\[CDATA\[([^\]]*)\]\]>/g,
        (_, slug: string) => `<wp:post_name><![CDATA[${slug}-${copies}]]>`,
      );
    if (!out.write(copy)) await once(out, 'drain');
    written += Buffer.byteLength(copy);
  }
  out.end(text.slice(last));
  await once(out, 'finish');
  return { copies, posts: copies * postsPerCopy };
}

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'penstand-import-memory-'));
});
afterAll(async () => {
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('importing a 100 MB WordPress export', () => {
  it('streams it: the importing process stays under 300 MB RSS and reports progress', async () => {
    const file = path.join(dir, 'large.xml');
    const { posts } = await writeLargeWxr(file);
    expect((await stat(file)).size).toBeGreaterThanOrEqual(TARGET_BYTES);
    // With the heap bounds `npm run import` gives node.
    const { entry, nodeFlags } = scriptCommand('import');
    const run = startProcess(
      entry,
      [file],
      { NODE_ENV: 'test', DATABASE_URL: database.url, LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, 'data') },
      nodeFlags,
    );
    let peak = 0;
    const sampler = setInterval(async () => {
      const status = await readFile(`/proc/${run.child.pid}/status`, 'utf8').catch(() => '');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb * 1024);
    }, 100);
    const code = await run.exited;
    clearInterval(sampler);
    expect(code, run.output().slice(-2000)).toBe(0);
    expect(run.output()).toMatch(/\d+\/\d+ items \(50%\)/);
    expect(run.output()).toContain(`created: ${posts}`);
    const [{ n }] = await database.db('posts').count({ n: '*' });
    expect(Number(n)).toBe(posts);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(300 * 1024 * 1024);
  }, 900_000);
});
