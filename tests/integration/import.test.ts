import { once } from 'node:events';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeTags } from '../../src/blog/post-schema.ts';
import { type ImportReport, runImport } from '../../src/import/import.ts';
import { ImportError } from '../../src/import/types.ts';
import { UPLOAD_MESSAGES } from '../../src/media/messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';
import { GHOST_FIXTURE, WXR_FIXTURE } from '../support/import-fixtures.ts';
import { startProcess } from '../support/process.ts';

const WXR = WXR_FIXTURE;
const GHOST = GHOST_FIXTURE;

/** The fixture read the slow, whole-file way, as the independent expectation. */
type Expected = { id: string; title: string; slug: string; date: Date; tags: string[]; comments: number };

const entity = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function expectedWordPress() {
  const doc = new XMLParser({ ignoreAttributes: false, parseTagValue: false, processEntities: false }).parse(
    readFileSync(WXR, 'utf8'),
  );
  const items: Record<string, unknown>[] = doc.rss.channel.item;
  const published: Expected[] = [];
  let importable = 0;
  let comments = 0;
  for (const item of items) {
    const type = item['wp:post_type'];
    if (type !== 'post' && type !== 'page') continue;
    importable++;
    const approved = list(item['wp:comment'] as Record<string, string>[]).filter(
      (c) => String(c['wp:comment_approved']) === '1' && ['', 'comment'].includes(c['wp:comment_type'] ?? ''),
    );
    comments += approved.length;
    if (item['wp:status'] !== 'publish' || item['wp:post_password']) continue;
    published.push({
      id: String(item['wp:post_id']),
      title: entity(String(item.title)) || 'Untitled',
      slug: String(item['wp:post_name']),
      date: new Date(`${String(item['wp:post_date_gmt']).replace(' ', 'T')}Z`),
      tags: normalizeTags(
        list(item.category as Record<string, string>[])
          .filter((c) => c['@_domain'] === 'post_tag')
          .map((c) => entity(c['#text'])),
      ),
      comments: approved.length,
    });
  }
  return { total: items.length, importable, comments, published };
}

let app: TestApp;
let dir: string;
const reports: Record<string, ImportReport> = {};

beforeAll(async () => {
  // With the page cache on: an import must not leave stored pages showing what was there before.
  // The image server of the --fetch-images tests is on loopback: allowed as an operator would allow an intranet host.
  app = await startTestApp({ env: { PAGE_CACHE_TTL_SECONDS: '300', IMPORT_ALLOWED_ADDRESSES: '127.0.0.1' } });
  dir = await mkdtemp(path.join(tmpdir(), 'penstand-import-'));
  reports.wordpress = await runImport(app.services, WXR);
  reports.ghost = await runImport(app.services, GHOST);
});
afterAll(async () => {
  await app?.close();
});

describe('import of a WordPress export', () => {
  const expected = expectedWordPress();

  it('reports the counts of the file', () => {
    const report = reports.wordpress;
    expect(report).toMatchObject({ format: 'wordpress', total: expected.total, updated: 0, unchanged: 0 });
    expect(report.created).toBe(expected.importable);
    expect(report.skipped).toHaveLength(expected.total - expected.importable);
    expect(report.comments.created).toBe(expected.comments);
    expect(report.warnings).toContainEqual(
      expect.stringContaining('unknown shortcode [gallery] kept as text'),
    );
    // None of the old categories is a Penstand one: all fall to the default, listed for the writer.
    expect(report.categories.Uncategorized).toEqual({ category: 'Technology', posts: expect.any(Number) });
    const pages = (readFileSync(WXR, 'utf8').match(/<wp:post_type><!\[CDATA\[page\]\]>/g) ?? []).length;
    expect(report.categories.Pages).toEqual({ category: 'Technology', posts: pages });
    const mapped = Object.values(report.categories).reduce((sum, c) => sum + c.posts, 0);
    expect(mapped).toBe(report.created);
  });

  it('brings every published post and page with its title, slug, date, tags and comments', async () => {
    const { db } = app.services;
    expect(expected.published.length).toBeGreaterThan(45);
    for (const post of expected.published) {
      const row = await db('posts')
        .where({ source_id: post.id })
        .whereLike('source_system', 'wordpress%')
        .first();
      expect(row, post.slug).toBeDefined();
      expect({ title: row.title, slug: row.slug, status: row.status, tags: row.tags }).toEqual({
        title: post.title,
        slug: post.slug,
        status: 'published',
        tags: post.tags,
      });
      expect(row.published_at.toISOString()).toBe(post.date.toISOString());
      const [{ n }] = await db('comments').where({ post_id: row.id, approved: true }).count({ n: '*' });
      expect(Number(n), post.slug).toBe(post.comments);
    }
    const special = await db('posts').where({ slug: 'title-with-special-characters' }).first('title');
    expect(special.title).toBe('Title With Special Characters ~`!@#$%^&*()-_=+{}[]/\\;:\'"?,.>');
  });

  it('maps embeds, audio, sticky posts, featured images and authors', async () => {
    const { db } = app.services;
    const video = await db('posts').where({ slug: 'post-format-video' }).first();
    expect(video.content).toContain('[youtube:nwe-H6l4beM]');
    expect(video.content_html).toContain('https://www.youtube-nocookie.com/embed/nwe-H6l4beM');
    const audio = await db('posts').where({ slug: 'post-format-audio' }).first('content');
    expect(audio.content).toContain(
      '[podcast:http://wptest.io/demo/wp-content/uploads/sites/2/2013/03/Eddy-Need-Remix.mp3]',
    );
    expect(video.content).not.toContain('<!-- wp:');
    expect(await db('posts').where({ slug: 'sticky' }).first('featured')).toEqual({ featured: true });
    const image = await db('posts')
      .where({ slug: 'featured-image-horizontal' })
      .first('featured_image', 'author_name');
    expect(image).toEqual({
      featured_image:
        'http://wptest.io/demo/wp-content/uploads/sites/2/2013/03/featured-image-horizontal.jpg',
      author_name: 'admin',
    });
    expect((await db('posts').where({ slug: 'scheduled' }).first('status')).status).toBe('scheduled');
    expect((await db('posts').where({ slug: 'password-protected' }).first('status')).status).toBe('draft');
  });

  it('answers the old permalinks of three posts with 301 to the post', async () => {
    const samples = [
      ['149', 'comments', '2013/01/03', 'comments'],
      ['582', 'post-format-video', '2012/12/02', 'post-formats'],
      ['1241', 'sticky', '2013/01/07', 'sticky'],
    ];
    for (const [id, slug, day, category] of samples) {
      const month = day.slice(0, 7);
      const olds = [`/?p=${id}`, `/${day}/${slug}/`, `/${month}/${slug}/`, `/${slug}/`, `/demo/${slug}/`];
      for (const old of [...olds, `/category/${category}/${slug}/`]) {
        const response = await fetch(`${app.url}${old}`, { redirect: 'manual' });
        expect(response.status, old).toBe(301);
        expect(new URL(response.headers.get('location') ?? '', app.url).pathname, old).toBe(`/post/${slug}`);
      }
    }
    expect((await fetch(`${app.url}/?p=999999`, { redirect: 'manual' })).status).toBe(200);
    expect((await fetch(`${app.url}/2013/01/03/nothing-here/`, { redirect: 'manual' })).status).toBe(404);
  });
});

describe('import of a Ghost export', () => {
  const data = JSON.parse(readFileSync(GHOST, 'utf8')).db[0].data;

  it('brings every published post with its title, slug, date and tags', async () => {
    const { db } = app.services;
    expect(reports.ghost).toMatchObject({
      format: 'ghost',
      total: data.posts.length,
      created: data.posts.length,
    });
    const tagNames = new Map(data.tags.map((t: { id: string; name: string }) => [t.id, t.name]));
    for (const post of data.posts.filter((p: { status: string }) => p.status === 'published')) {
      const row = await db('posts').where({ source_system: 'ghost', source_id: post.id }).first();
      const tags = data.posts_tags
        .filter((pt: { post_id: string }) => pt.post_id === post.id)
        .sort((a: { sort_order: number }, b: { sort_order: number }) => a.sort_order - b.sort_order)
        .map((pt: { tag_id: string }) => tagNames.get(pt.tag_id));
      expect({ title: row.title, status: row.status, tags: row.tags }).toEqual({
        title: post.title,
        status: 'published',
        tags,
      });
      // The WordPress file's About page came first: the Ghost one gets a suffix.
      expect(row.slug).toBe(post.slug === 'about' ? 'about-2' : post.slug);
      expect(row.published_at.toISOString()).toBe(
        new Date(`${post.published_at.replace(' ', 'T')}Z`).toISOString(),
      );
    }
    const first = await db('posts').where({ slug: 'small-tools-i-use-every-day' }).first();
    expect(first).toMatchObject({
      category: 'Technology',
      author_name: 'Alex Morgan',
      featured_image: '/content/images/2026/11/code-1.svg',
    });
    expect(first.excerpt).toMatch(/^A tour of the unglamorous command-line tools/);
  });
});

describe('every imported body', () => {
  it('went through the editor sanitizer: no scripts, event handlers or javascript: URLs', async () => {
    const rows = await app.services.db('posts').select('slug', 'content_html');
    expect(rows.length).toBe(reports.wordpress.created + reports.ghost.created);
    for (const row of rows) {
      expect(row.content_html, row.slug).not.toMatch(/<script/i);
      expect(row.content_html, row.slug).not.toMatch(/\son[a-z]+\s*=/i);
      expect(row.content_html, row.slug).not.toMatch(/javascript:/i);
    }
  });
});

describe('importing again', () => {
  it('changes nothing', async () => {
    const { db } = app.services;
    const tables = await watchedTables(db);
    const before = await fingerprint(db, tables);
    const wordpress = await runImport(app.services, WXR);
    const ghost = await runImport(app.services, GHOST);
    expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
    expect(wordpress).toMatchObject({ created: 0, updated: 0, unchanged: reports.wordpress.created });
    expect(wordpress.comments).toEqual({ created: 0, unchanged: reports.wordpress.comments.created });
    expect(ghost).toMatchObject({ created: 0, updated: 0, unchanged: reports.ghost.created });
  });

  it('as a dry run writes nothing and counts what it would do', async () => {
    const { db } = app.services;
    const tables = await watchedTables(db);
    const before = await fingerprint(db, tables);
    const report = await runImport(app.services, GHOST, { dryRun: true });
    expect(report).toMatchObject({ dryRun: true, unchanged: reports.ghost.created });
    expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
  });
});

describe('a bad file', () => {
  const wxr = readFileSync(WXR);
  const cases: [string, string | Buffer, RegExp][] = [
    ['empty.xml', '', /The file is empty/],
    [
      'notes.txt',
      'just some notes, not an export',
      /neither a WordPress export \(XML\), a Ghost export \(JSON\), a Substack or Medium export \(zip\) nor a member list \(CSV with an email column\)/,
    ],
    ['page.xml', '<html><body>hello</body></html>', /not a WordPress export/],
    ['broken.xml', '<rss><channel><item><title>x</title></channel></rss>', /not valid XML/],
    ['truncated.xml', wxr.subarray(0, Math.floor(wxr.length / 2)), /not valid XML/],
    ['other.json', '{"posts": [], "name": "not ghost"}', /not a Ghost export/],
    ['truncated.json', readFileSync(GHOST).subarray(0, 5000), /not valid JSON/],
    // A zip bomb posing as XML: never inflated, refused by its first bytes.
    [
      'archive.xml',
      gzipSync(Buffer.alloc(20 * 1024 * 1024)),
      /neither a WordPress export \(XML\), a Ghost export \(JSON\), a Substack or Medium export \(zip\) nor a member list \(CSV with an email column\)/,
    ],
    [
      'bomb.xml',
      `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${'b'.repeat(i + 1)} "${`&${i ? 'b'.repeat(i) : 'a'};`.repeat(10)}">`).join('')}]><rss><channel><wp:wxr_version>1.2</wp:wxr_version><item><title>&bbbbbbbbb;</title></item></channel></rss>`,
      /not valid XML/,
    ],
  ];

  it('gets a clear message and changes nothing', async () => {
    const { db } = app.services;
    const tables = await watchedTables(db);
    const before = await fingerprint(db, tables);
    for (const [name, content, message] of cases) {
      const file = path.join(dir, name);
      writeFileSync(file, content);
      const error = await runImport(app.services, file).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(ImportError);
      expect((error as Error).message, name).toMatch(message);
    }
    // Over the JSON cap: refused before it is read (a sparse file: no disk is used).
    const huge = path.join(dir, 'huge.json');
    writeFileSync(huge, '{');
    truncateSync(huge, 201 * 1024 * 1024);
    await expect(runImport(app.services, huge)).rejects.toThrow(
      'The file is 201 MB; JSON exports over 200 MB are refused.',
    );
    expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
  });
});

describe('npm run import', () => {
  const data = JSON.parse(readFileSync(GHOST, 'utf8')).db[0].data;
  const firstTag = (postId: string) => {
    const [first] = data.posts_tags
      .filter((pt: { post_id: string }) => pt.post_id === postId)
      .sort((a: { sort_order: number }, b: { sort_order: number }) => a.sort_order - b.sort_order);
    return data.tags.find((t: { id: string }) => t.id === first?.tag_id)?.name;
  };

  it("prints the report, and a bad file's message with exit code 1", async () => {
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: app.database.url,
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(dir, 'data'),
    };
    const dry = startProcess('src/cli/import.ts', [GHOST, '--dry-run'], env);
    expect(await dry.exited, dry.output()).toBe(0);
    expect(dry.output()).toContain('Dry run (nothing saved): Ghost export, 17 items');
    expect(dry.output()).toContain(`unchanged: ${reports.ghost.created}`);
    const mapped = startProcess('src/cli/import.ts', [GHOST, '--dry-run', '--category', 'Life=Travel'], env);
    expect(await mapped.exited, mapped.output()).toBe(0);
    const lives = data.posts.filter((p: { id: string }) => firstTag(p.id) === 'Life').length;
    expect(mapped.output()).toContain(`  Life → Travel (${lives} posts)`);
    expect(mapped.output()).toContain(`updated: ${lives}`);
    const unknown = startProcess('src/cli/import.ts', [GHOST, '--category', 'Life=Pages'], env);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toContain("Unknown category 'Pages': choose one of Technology, Design");
    const empty = path.join(dir, 'empty.json');
    writeFileSync(empty, '');
    const bad = startProcess('src/cli/import.ts', [empty], env);
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain('The file is empty (0 bytes). Nothing was imported.');
    const usage = startProcess('src/cli/import.ts', [], env);
    expect(await usage.exited).toBe(2);
    expect(usage.output()).toContain(
      'Usage: npm run import -- <file.xml|file.json|file.zip|file.csv> [--dry-run]',
    );
  });
});

describe('import with --fetch-images', () => {
  it('copies reachable images into storage, points the post at them, lists failures, and is idempotent', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/a.png' || req.url === '/b.png')
        res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else if (req.url === '/not-image.png') res.writeHead(200, { 'content-type': 'image/png' }).end('hello');
      else res.writeHead(404).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // The fixture's header (namespaces, authors) with one attachment and one post of our own.
      const text = readFileSync(WXR, 'utf8');
      const header = text
        .slice(0, text.indexOf('<item>'))
        .replaceAll('http://wptest.io/demo', 'http://images.example');
      const file = path.join(dir, 'images.xml');
      writeFileSync(
        file,
        `${header}
<item><title>Cover</title><wp:post_id>7001</wp:post_id><wp:post_type>attachment</wp:post_type>
<wp:status>inherit</wp:status><wp:attachment_url>${origin}/b.png</wp:attachment_url></item>
<item><title>Pictures</title><link>http://images.example/pictures/</link><wp:post_id>7002</wp:post_id>
<wp:post_name>pictures</wp:post_name><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
<wp:post_date_gmt>2020-01-02 03:04:05</wp:post_date_gmt>
<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>7001</wp:meta_value></wp:postmeta>
<content:encoded><![CDATA[<p><img src="${origin}/a.png" alt="A"></p><p><img src="${origin}/missing.png" alt="M"></p><p><img src="${origin}/not-image.png" alt="N"></p>]]></content:encoded>
</item></channel></rss>`,
      );
      const { db } = app.services;
      // Not a post yet: the home page, stored by the page cache.
      await fetch(`${app.url}/?p=7002`);
      expect((await fetch(`${app.url}/?p=7002`)).headers.get('x-cache')).toBe('HIT');
      const report = await runImport(app.services, file, { fetchImages: true });
      const moved = await fetch(`${app.url}/?p=7002`, { redirect: 'manual' });
      expect(moved.status).toBe(301);
      expect(moved.headers.get('location')).toBe('/post/pictures');
      expect(report.created).toBe(1);
      expect(report.warnings).toEqual(
        expect.arrayContaining([
          `image ${origin}/missing.png not copied: HTTP 404`,
          `image ${origin}/not-image.png not copied: ${UPLOAD_MESSAGES.notImage}`,
        ]),
      );
      const post = await db('posts').where({ slug: 'pictures' }).first();
      const copied = /!\[A\]\((\/uploads\/[a-f0-9]{32}\.png)\)/.exec(post.content)?.[1];
      expect(copied, post.content).toBeDefined();
      expect(post.content).toContain(`![M](${origin}/missing.png)`);
      expect(post.featured_image).toBe(`${origin}/b.png`);
      expect(post.featured_image_file).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
      expect(post.content_html).toContain(`src="${copied}"`);
      const served = await fetch(`${app.url}${copied}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');

      const tables = await watchedTables(db);
      const before = await fingerprint(db, tables);
      const fetched = hits.filter((h) => h === '/a.png').length;
      const again = await runImport(app.services, file, { fetchImages: true });
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
      expect(changedTables(before, await fingerprint(db, tables))).toEqual([]);
      expect(hits.filter((h) => h === '/a.png')).toHaveLength(fetched);
    } finally {
      server.close();
    }
  });

  it('refuses loopback, private and link-local addresses, after resolving the name and at every redirect', async () => {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      // The cloud's metadata service: what a hostile export would like the server to read.
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    const post = (
      id: number,
      urls: string[],
    ) => `<item><title>Probe ${id}</title><wp:post_id>${id}</wp:post_id>
<wp:post_name>probe-${id}</wp:post_name><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
<wp:post_date_gmt>2020-01-02 03:04:05</wp:post_date_gmt>
<content:encoded><![CDATA[${urls.map((u) => `<p><img src="${u}" alt="x"></p>`).join('')}]]></content:encoded></item>`;
    const text = readFileSync(WXR, 'utf8');
    const header = text.slice(0, text.indexOf('<item>'));
    const importOf = async (name: string, item: string, allowed: string[]) => {
      const file = path.join(dir, name);
      writeFileSync(file, `${header}${item}</channel></rss>`);
      return runImport({ ...app.services, config: { importAllowedAddresses: allowed } }, file, {
        fetchImages: true,
      });
    };
    try {
      const direct = [
        `http://127.0.0.1:${port}/a.png`,
        `http://localhost:${port}/b.png`,
        `http://[::1]:${port}/c.png`,
        'http://10.0.0.1/d.png',
        'http://169.254.169.254/latest/meta-data/e.png',
      ];
      const refused = await importOf('private.xml', post(7101, direct), []);
      expect(refused.created).toBe(1);
      for (const url of direct)
        expect(refused.warnings.find((w) => w.startsWith(`image ${url} not copied:`))).toMatch(
          /is not allowed/,
        );
      expect(hits).toEqual([]);

      // Allowed (an intranet host), it may still not send the server on to a private address.
      const redirected = await importOf('redirect.xml', post(7102, [`http://127.0.0.1:${port}/moved.png`]), [
        '127.0.0.1',
      ]);
      expect(
        redirected.warnings.find((w) => w.startsWith(`image http://127.0.0.1:${port}/moved.png`)),
      ).toMatch(/169\.254\.169\.254.* is not allowed/);
      expect(hits).toEqual(['/moved.png']);
      const stored = await app.services
        .db('posts')
        .whereIn('slug', ['probe-7101', 'probe-7102'])
        .select('content');
      expect(stored.map((p) => p.content).join('')).not.toContain('/uploads/');
    } finally {
      server.close();
    }
  });
});
