import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImportReport, runImport } from '../../src/import/import.ts';
import { openZip } from '../../src/import/zip.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { GHOST_FIXTURE, SUBSTACK_FIXTURE, storedZip } from '../support/import-fixtures.ts';

/**
 * Issue 33: who could read a post on the old site still can, no one else. The fixtures hold only
 * public posts (Ghost) and paid ones (Substack): these exports are made from them, with a few posts
 * for members, paid members and given tiers, the paywall where Ghost and Substack put it.
 */
let app: TestApp;
let dir: string;
const reports: Record<string, ImportReport> = {};
const PAID_TIER = '6b04db0655de6e224e142160'; // the fixture's paid tier, 'Penstand peer'
const FREE_TIER = '6b04db0655de6e224e14215f'; // and its free one, 'Free'

type GhostPost = { id: string; slug: string; html: string | null; lexical: string; visibility: string };

/**
 * The fixture's Ghost export with four gated posts: members', paid, for one paid tier (Lexical body
 * only), and for the free and the paid tier.
 */
function ghostGated(): string {
  const doc = JSON.parse(readFileSync(GHOST_FIXTURE, 'utf8'));
  const data = doc.db[0].data;
  const post = (slug: string): GhostPost => data.posts.find((p: GhostPost) => p.slug === slug);
  const members = post('morning-routines-are-overrated');
  members.visibility = 'members';
  members.html = (members.html ?? '').replace('</h2>', '</h2><!--members-only-->');
  const paid = post('typography-for-developers');
  paid.visibility = 'paid';
  paid.html = (paid.html ?? '').replace('</p>', '</p><!--members-only-->');
  const tiers = post('why-i-still-write-tests-first');
  tiers.visibility = 'tiers';
  // Without `html`, the body comes from the Lexical document, Ghost's paywall card in it.
  tiers.html = null;
  const lexical = JSON.parse(tiers.lexical);
  lexical.root.children.splice(1, 0, { type: 'paywall', version: 1 });
  tiers.lexical = JSON.stringify(lexical);
  const everyTier = post('colour-palettes-that-survive-dark-mode');
  everyTier.visibility = 'tiers';
  data.posts_products = [
    { id: 'pp1', post_id: tiers.id, product_id: PAID_TIER, sort_order: 0 },
    { id: 'pp2', post_id: everyTier.id, product_id: FREE_TIER, sort_order: 0 },
    { id: 'pp3', post_id: everyTier.id, product_id: PAID_TIER, sort_order: 1 },
  ];
  const file = path.join(dir, 'ghost-gated.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

/** The fixture's Substack export with its first post for subscribers only ('only_free'). */
async function substackSubscribersOnly(): Promise<string> {
  const zip = await openZip(SUBSTACK_FIXTURE);
  const files: Record<string, string> = {};
  for (const name of zip.names.filter((n) => !n.endsWith('/'))) files[name] = await zip.read(name);
  zip.close();
  files['posts.csv'] = files['posts.csv'].replace(
    '140001.why-i-write-by-hand,2024-02-05T09:12:44.101Z,true,2024-02-05T09:12:45.880Z,newsletter,everyone,',
    '140001.why-i-write-by-hand,2024-02-05T09:12:44.101Z,true,2024-02-05T09:12:45.880Z,newsletter,only_free,',
  );
  expect(files['posts.csv']).toContain('only_free');
  const file = path.join(dir, 'substack-subscribers-only.zip');
  writeFileSync(file, storedZip(files));
  return file;
}

beforeAll(async () => {
  app = await startTestApp();
  dir = await mkdtemp(path.join(tmpdir(), 'penstand-import-gated-'));
  reports.ghost = await runImport(app.services, ghostGated());
  reports.substack = await runImport(app.services, await substackSubscribersOnly());
});
afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

const postOf = (slug: string) =>
  app.services
    .db('posts')
    .where({ slug })
    .first('status', 'visibility', 'content', 'preview_content', 'published_at');
const anonymousPage = async (slug: string) => (await fetch(`${app.url}/post/${slug}`)).text();

describe('a Ghost export’s members’ and paid posts', () => {
  it('keeps them published, for members or paying members, the preview ending at Ghost’s paywall', async () => {
    expect(reports.ghost.contents).toMatchObject({ members: 2, paid: 2 });
    const members = await postOf('morning-routines-are-overrated');
    expect(members).toMatchObject({ status: 'published', visibility: 'members' });
    expect(members.content).toMatch(/## The problem with scripts\n\n\[paywall\]\n\n/);
    expect(members.preview_content).toMatch(/## The problem with scripts$/);
    const paid = await postOf('typography-for-developers');
    expect(paid).toMatchObject({ status: 'published', visibility: 'paid' });
    expect(paid.preview_content).toMatch(/^Working on typography taught me/);
    expect(paid.preview_content).not.toContain('Line length');
    const tiers = await postOf('why-i-still-write-tests-first');
    expect(tiers).toMatchObject({ status: 'published', visibility: 'paid' });
    expect(tiers.content).toMatch(/Friday\. .*moment\.\n\n\[paywall\]\n\n## The loop/);
    expect(tiers.preview_content).not.toContain('The loop');
    expect(reports.ghost.warnings.join('\n')).not.toMatch(/draft|members-only divider|unknown Ghost card/);
  });

  it('names the tiers a post was limited to: here it is for any paying member, or every member with the free tier', async () => {
    expect(reports.ghost.warnings).toContain(
      'post 6b04db2155de6e224e1424b8 (why-i-still-write-tests-first): for the tiers Penstand peer on Ghost: imported for paying members of any tier',
    );
    expect(reports.ghost.warnings).toContain(
      'post 6b04db2155de6e224e1424ab (colour-palettes-that-survive-dark-mode): for the tiers Free, Penstand peer on Ghost: imported for every member',
    );
    expect(await postOf('colour-palettes-that-survive-dark-mode')).toMatchObject({
      status: 'published',
      visibility: 'members',
    });
  });

  it('shows an anonymous reader the preview and the way in, nothing past the paywall', async () => {
    const members = await anonymousPage('morning-routines-are-overrated');
    expect(members).toContain('The problem with scripts');
    expect(members).toContain('This post is for members');
    expect(members).not.toContain('Energy over time');
    const paid = await anonymousPage('typography-for-developers');
    expect(paid).toContain('This post is for paying members');
    expect(paid).not.toContain('Line length');
  });
});

describe('a Substack export’s subscribers-only posts', () => {
  it('are published for members, as on Substack', async () => {
    expect(reports.substack.contents).toMatchObject({ members: 1, paid: 2 });
    const post = await postOf('why-i-write-by-hand');
    expect(post).toMatchObject({ status: 'published', visibility: 'members' });
    expect(post.published_at.toISOString()).toBe('2024-02-05T09:12:44.101Z');
    expect(post.preview_content).toBe(
      'I started keeping a paper notebook again in January. This is what changed.',
    );
    expect(reports.substack.warnings.join('\n')).not.toMatch(/why-i-write-by-hand.*draft/);
    const page = await anonymousPage('why-i-write-by-hand');
    expect(page).toContain('I started keeping a paper notebook again in January.');
    expect(page).toContain('This post is for members');
    expect(page).not.toContain('the ink');
  });
});
