import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ImportReport, runImport } from '../../src/import/import.ts';
import { ImportError } from '../../src/import/types.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';
import {
  GHOST_MEMBERS_FIXTURE,
  MEDIUM_FIXTURE,
  SUBSTACK_FIXTURE,
  storedZip,
} from '../support/import-fixtures.ts';
import { startProcess } from '../support/process.ts';

let app: TestApp;
let dir: string;
const reports: Record<string, ImportReport> = {};

beforeAll(async () => {
  app = await startTestApp();
  dir = await mkdtemp(path.join(tmpdir(), 'penstand-zip-import-'));
  const { db } = app.services;
  const tables = await watchedTables(db);
  const before = await fingerprint(db, tables);
  reports.substackDry = await runImport(app.services, SUBSTACK_FIXTURE, { dryRun: true });
  reports.mediumDry = await runImport(app.services, MEDIUM_FIXTURE, { dryRun: true });
  // The dry run counts everything, subscribers included, and writes nothing.
  expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
  reports.substack = await runImport(app.services, SUBSTACK_FIXTURE);
  reports.medium = await runImport(app.services, MEDIUM_FIXTURE);
});
afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

async function expectRedirect(old: string, slug: string) {
  const response = await fetch(`${app.url}${old}`, { redirect: 'manual' });
  expect(response.status, old).toBe(301);
  expect(new URL(response.headers.get('location') ?? '', app.url).pathname, old).toBe(`/post/${slug}`);
}

describe('import of a Substack export (zip)', () => {
  it('reports posts, pages, drafts, paid posts, skipped rows and subscribers, the same in the dry run', () => {
    for (const report of [reports.substackDry, reports.substack]) {
      expect(report).toMatchObject({
        format: 'substack',
        total: 8,
        created: 6,
        contents: { posts: 5, pages: 1, drafts: 1, paid: 2 },
        subscribers: { added: 5, merged: 0, optedOut: 1, deleted: 1, invalid: 1 },
        members: { created: 6, existing: 0, comped: 0, linked: 0, notPlaced: 2 },
      });
      expect(report.warnings).toContain(
        'member ada@example.com: paying on the old site, not linked: no Stripe key is set here; a free member here',
      );
      expect(report.skipped.map((s) => [s.sourceId, s.reason])).toEqual([
        ['140006', 'a Substack thread (a discussion, not a post)'],
        ['140008', 'no HTML file in the export'],
      ]);
      expect(report.warnings).toContain(
        "subscriber list line 8: 'not-an-address' is not an email address, left out",
      );
    }
    expect(reports.substackDry.dryRun).toBe(true);
  });

  it('keys the posts by the publication, keeps drafts as drafts, publishes paid posts and places podcasts', async () => {
    const posts = await app.services
      .db('posts')
      .where({ source_system: 'substack', source_site: 'fieldnotes.substack.com' })
      .orderBy('source_id')
      .select('source_id', 'slug', 'status', 'category', 'content', 'excerpt', 'published_at');
    expect(posts.map((p) => [p.source_id, p.slug, p.status])).toEqual([
      ['140001', 'why-i-write-by-hand', 'published'],
      ['140002', 'the-paper-ledger', 'published'],
      ['140003', 'episode-1-notebooks', 'published'],
      ['140004', 'half-finished-thoughts', 'draft'],
      ['140005', 'about', 'published'],
      ['140007', 'founders-letter', 'published'],
    ]);
    const [first, , podcast] = posts;
    expect(first.excerpt).toBe('“Slow” is not the same as late');
    expect(first.published_at.toISOString()).toBe('2024-02-05T09:12:44.101Z');
    // Substack's subscribe and share buttons lead back to Substack: left out.
    expect(first.content).not.toMatch(/Subscribe now|substack\.com\/subscribe|Share/);
    expect(first.content).toContain('**worth** the ink');
    expect(podcast.category).toBe('Podcasts');
    expect(podcast.content).toContain('[podcast:https://api.substack.com/feed/podcast/140003/episode.mp3]');
  });

  it("imports paid posts for paying members, the free preview ending at Substack's paywall", async () => {
    const paid = await app.services
      .db('posts')
      .whereIn('slug', ['the-paper-ledger', 'founders-letter'])
      .orderBy('slug')
      .select('slug', 'visibility', 'content', 'preview_content', 'content_html');
    expect(paid.map((p) => [p.slug, p.visibility, p.preview_content])).toEqual([
      [
        'founders-letter',
        'paid',
        'Thank you for backing Field Notes from the start. Here is what is coming this year.',
      ],
      ['the-paper-ledger', 'paid', 'Here is how I keep a ledger of every piece I write.'],
    ]);
    const ledger = paid[1];
    expect(ledger.content).toMatch(/write\.\n\n\[paywall\]\n\n### The columns/);
    expect(ledger.content_html).not.toContain('[paywall]');
    expect(reports.substack.warnings.join('\n')).not.toMatch(/paid-only|no paid memberships/);
    // An anonymous reader gets the preview, never the part behind the paywall.
    const page = await (await fetch(`${app.url}/post/the-paper-ledger`)).text();
    expect(page).toContain('Here is how I keep a ledger');
    expect(page).not.toContain('Date, title, words');
  });

  it('makes the list confirmed newsletter subscribers, leaving out opted-out, deleted and invalid rows', async () => {
    const rows = await app.services
      .db('newsletter_subscribers')
      .whereRaw("email NOT LIKE '%@penstand.test'")
      .orderBy('email')
      .select('email', 'status');
    expect(rows.filter((r) => /example/i.test(r.email)).map((r) => [r.email, r.status])).toEqual([
      ['Linus@Example.net', 'confirmed'],
      ['ada@example.com', 'confirmed'],
      ['barbara@example.com', 'confirmed'],
      ['grace.hopper@example.org', 'confirmed'],
      ['margaret@example.com', 'confirmed'],
    ]);
    expect(rows.map((r) => r.email)).not.toContain('ken@example.com');
    // Ken turned emails off: a member (an account that signs in by resetting its password), not a subscriber.
    expect(
      await app.services
        .db('users')
        .where({ email: 'ken@example.com' })
        .first('password_hash', 'email_verified'),
    ).toEqual({ password_hash: null, email_verified: true });
  });

  it('answers the old /p/<slug> addresses with 301 to the post', async () => {
    await expectRedirect('/p/why-i-write-by-hand', 'why-i-write-by-hand');
    await expectRedirect('/p/episode-1-notebooks/', 'episode-1-notebooks');
  });

  it('creates nothing the second time', async () => {
    const again = await runImport(app.services, SUBSTACK_FIXTURE);
    expect(again).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 6,
      subscribers: { added: 0, merged: 5 },
      members: { created: 0, existing: 6, comped: 0, linked: 0, notPlaced: 2 },
    });
  });
});

describe('import of a Medium export (zip)', () => {
  it('reports stories, drafts and the response, the same in the dry run', () => {
    for (const report of [reports.mediumDry, reports.medium]) {
      expect(report).toMatchObject({
        format: 'medium',
        total: 5,
        created: 5,
        skipped: [],
        contents: { posts: 5, pages: 0, drafts: 3, paid: 0 },
      });
      expect(report.subscribers).toBeUndefined();
    }
  });

  it("keys the stories by the writer's profile, with byline, tags, excerpt, featured image and drafts apart", async () => {
    const posts = await app.services
      .db('posts')
      .where({ source_system: 'medium', source_site: 'medium.com/@jowriter' })
      .orderBy('source_id')
      .select(
        'source_id',
        'slug',
        'title',
        'status',
        'tags',
        'author_name',
        'excerpt',
        'featured_image',
        'content',
      );
    expect(posts.map((p) => [p.source_id, p.slug, p.status])).toEqual([
      ['0d1e2f3a4b5c', 'untitled-draft', 'draft'],
      ['1c2d3e4f5a6b', 'thanks-this-is-exactly-what-i-needed-today', 'draft'],
      ['3f1a2b4c5d6e', 'learning-to-draw-again', 'published'],
      ['7e6f5a4b3c2d', 'ink-colours-i-have-tried', 'draft'],
      ['9b8a7c6d5e4f', 'ten-notebooks-later', 'published'],
    ]);
    const story = posts[2];
    expect(story).toMatchObject({
      title: 'Learning to Draw Again',
      author_name: 'Jo Writer',
      excerpt: 'What a year of sketching taught me about writing',
      featured_image: 'https://cdn-images-1.medium.com/max/800/1*sketchbook.jpeg',
    });
    expect(story.tags).toEqual(['Drawing', 'Writing']);
    // The title and subtitle Medium repeats at the top of the body, and the featured image, appear once.
    expect(story.content.startsWith('A year ago I bought a sketchbook')).toBe(true);
    expect(story.content).toContain('```\npencil: 2B\npaper: 120 gsm\n```');
    expect(reports.medium.warnings).toContain(
      'post 1c2d3e4f5a6b (thanks-this-is-exactly-what-i-needed-today): looks like a response to another story (one paragraph): imported as a draft',
    );
  });

  it('answers the canonical link and /p/<id> with 301 to the post', async () => {
    await expectRedirect('/@jowriter/learning-to-draw-again-3f1a2b4c5d6e', 'learning-to-draw-again');
    await expectRedirect('/p/9b8a7c6d5e4f', 'ten-notebooks-later');
  });
});

describe('a zip that is no export', () => {
  it('is refused with a clear message and changes nothing', async () => {
    const { db } = app.services;
    const tables = await watchedTables(db);
    const before = await fingerprint(db, tables);
    const fixture = readFileSync(MEDIUM_FIXTURE);
    const cases: [string, Buffer, string][] = [
      [
        'photos.zip',
        storedZip({ 'holiday/beach.txt': 'not a photo', 'README.html': '<p>Hello</p>' }),
        'The zip is neither a Substack export (posts.csv and posts/) nor a Medium export (posts/*.html). Nothing was imported.',
      ],
      [
        'cut.zip',
        fixture.subarray(0, Math.floor(fixture.length / 2)),
        'The file is not a readable zip archive: End of central directory record signature not found. Either not a zip file, or file is truncated. Nothing was imported.',
      ],
      [
        'other-posts.zip',
        storedZip({ 'posts.csv': 'id,name\n1,hello\n', 'posts/1.hello.html': '<p>Hi</p>' }),
        "posts.csv has no post_id, post_date, is_published, type, audience, title columns: it is not a Substack export's. Nothing was imported.",
      ],
      [
        'no-addresses.zip',
        storedZip({
          'posts.csv':
            'post_id,post_date,is_published,email_sent_at,type,audience,title,subtitle,podcast_url\n1.hello,2024-01-01T00:00:00.000Z,true,,newsletter,everyone,Hello,,\n',
          'posts/1.hello.html': '<p>Hi</p>',
          'email_list.hello.csv': 'address,created_at\nreader@example.com,2024-01-01T00:00:00.000Z\n',
        }),
        "The subscriber list has no email column: it is not a Substack export's. Nothing was imported.",
      ],
    ];
    for (const [name, content, message] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      const error = await runImport(app.services, file).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(ImportError);
      expect((error as Error).message, name).toBe(message);
    }
    expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
  });

  it('npm run import prints the report of a zip, and the refusal with exit code 1', async () => {
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: app.database.url,
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(dir, 'data'),
    };
    const dry = startProcess('src/cli/import.ts', [SUBSTACK_FIXTURE, '--dry-run'], env);
    expect(await dry.exited, dry.output()).toBe(0);
    expect(dry.output()).toContain('Dry run (nothing saved): Substack export, 8 items');
    expect(dry.output()).toContain('paid posts: 2 (for paying members only: visibility paid)');
    expect(dry.output()).toContain(
      'subscribers: 0 added (confirmed), 5 already here, 1 with emails turned off left out, 1 deleted left out, 1 not addresses',
    );
    expect(dry.output()).toContain(
      'members: 0 new accounts, 6 already here, 0 comped, 0 linked to Stripe, 2 paying or comped there left free',
    );
    const photos = path.join(dir, 'photos.zip');
    writeFileSync(photos, storedZip({ 'holiday/beach.txt': 'not a photo' }));
    const refused = startProcess('src/cli/import.ts', [photos], env);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('The zip is neither a Substack export');
  });
});

describe('a member list (CSV) on its own', () => {
  it("imports Ghost's members export and any list with an email column; a CSV without one is refused", async () => {
    const { db } = app.services;
    const tables = await watchedTables(db);
    const before = await fingerprint(db, tables);
    const dry = await runImport(app.services, GHOST_MEMBERS_FIXTURE, { dryRun: true });
    expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
    const ghost = await runImport(app.services, GHOST_MEMBERS_FIXTURE);
    for (const report of [dry, ghost])
      expect(report).toMatchObject({
        format: 'members',
        total: 5,
        created: 0,
        // ada@example.com came with the Substack export.
        subscribers: { added: 3, merged: 1, optedOut: 1, deleted: 0, paid: 2, invalid: 0 },
      });
    // This site has no tier and no Stripe key: the comped and the paying member are free members here.
    expect(dry.members).toEqual({ created: 4, existing: 1, comped: 0, linked: 0, notPlaced: 2 });
    expect(ghost.members).toEqual(dry.members);
    expect(ghost.warnings).toEqual(
      expect.arrayContaining([
        'member friend@example.org: complimentary on the old site, not placed: this site has 0 active tiers; a free member here',
        'member paying@example.net: paying on the old site, not linked: no Stripe key is set here; a free member here',
      ]),
    );
    expect(await db('newsletter_subscribers').where({ email: 'quiet@example.com' }).first()).toBeUndefined();

    // Mailchimp's export heads its address column 'Email Address'.
    const mailchimp = path.join(dir, 'subscribed_members.csv');
    writeFileSync(mailchimp, 'Email Address,First Name\r\nnew.reader@example.com,New\r\nnope,Nope\r\n');
    expect(await runImport(app.services, mailchimp)).toMatchObject({
      format: 'members',
      subscribers: { added: 1, merged: 0, invalid: 1 },
    });
    expect(
      await db('newsletter_subscribers').where({ email: 'new.reader@example.com' }).first('status'),
    ).toEqual({
      status: 'confirmed',
    });

    const noEmail = path.join(dir, 'names.csv');
    writeFileSync(noEmail, 'name,city\nAda,London\n');
    const error = await runImport(app.services, noEmail).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toBe(
      'The file is neither a WordPress export (XML), a Ghost export (JSON), a Substack or Medium export (zip) nor a member list (CSV with an email column). Nothing was imported.',
    );
  });
});
