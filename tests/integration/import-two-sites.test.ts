import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runImport } from '../../src/import/import.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { WXR_FIXTURE } from '../support/import-fixtures.ts';

let app: TestApp;
let dir: string;
let secondSite: string;
beforeAll(async () => {
  app = await startTestApp();
  dir = await mkdtemp(path.join(tmpdir(), 'two-sites-'));
  // A second WordPress site with the same post and comment ids (any two sites share 1–200) and
  // other titles, bodies and comments.
  secondSite = path.join(dir, 'second-site.xml');
  writeFileSync(
    secondSite,
    readFileSync(WXR_FIXTURE, 'utf8')
      .replaceAll('http://wptest.io/demo', 'https://second.example/blog')
      .replace(
        /(<item>\s*<title>)(<!\[CDATA\[)?/g,
        (_, open: string, cdata = '') => `${open}${cdata}Second site: `,
      )
      .replaceAll('<content:encoded><![CDATA[', '<content:encoded><![CDATA[<p>From the second site.</p>')
      .replaceAll('<wp:comment_content><![CDATA[', '<wp:comment_content><![CDATA[Second site says: '),
  );
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

const rowsOf = async (site: string) => {
  const { db } = app.services;
  const posts = await db('posts').where({ source_site: site }).orderBy('id').select('*');
  const comments = await db('comments').where({ source_site: site }).orderBy('id').select('*');
  return { posts, comments };
};

it('two WordPress sites with overlapping ids never overwrite each other, imported in turn and again', async () => {
  const first = await runImport(app.services, WXR_FIXTURE);
  expect(first.created).toBeGreaterThan(0);
  const firstRows = await rowsOf('wptest.io/demo');
  expect(firstRows.posts).toHaveLength(first.created);

  const second = await runImport(app.services, secondSite);
  // Every item is new, though each id was seen from the first site.
  expect(second).toMatchObject({ created: first.created, updated: 0, unchanged: 0 });
  expect(second.comments).toEqual({ created: first.comments.created, unchanged: 0 });
  const secondRows = await rowsOf('second.example/blog');
  expect(secondRows.posts.every((post) => post.title.startsWith('Second site:'))).toBe(true);
  expect(secondRows.comments.every((comment) => comment.content.startsWith('Second site says:'))).toBe(true);
  // The first site's posts and comments are exactly as they were.
  expect(await rowsOf('wptest.io/demo')).toEqual(firstRows);
  // Old addresses both sites used ('/?p=ID') keep leading to the first site's posts, and the
  // report says so for each.
  expect(second.warnings).toContainEqual(
    expect.stringMatching(/the old address \/\?p=\d+ already leads to post \d+/),
  );
  const oldAddress = await fetch(`${app.url}/?p=${firstRows.posts[0].source_id}`, { redirect: 'manual' });
  expect(oldAddress.headers.get('location')).toContain(`/post/${firstRows.posts[0].slug}`);

  // The first file again: nothing new, nothing changed, on either side.
  const again = await runImport(app.services, WXR_FIXTURE);
  expect(again).toMatchObject({ created: 0, updated: 0, unchanged: first.created });
  expect(again.comments).toEqual({ created: 0, unchanged: first.comments.created });
  expect(await rowsOf('wptest.io/demo')).toEqual(firstRows);
  expect(await rowsOf('second.example/blog')).toEqual(secondRows);
});

it('posts imported before sites were told apart are claimed by their own file only', async () => {
  const { db } = app.services;
  // As the migration leaves them: keyed by system and id, with no site.
  await db('posts').where({ source_site: 'wptest.io/demo' }).update({ source_site: '' });
  await db('comments').where({ source_site: 'wptest.io/demo' }).update({ source_site: '' });
  const unsited = await rowsOf('');
  const secondRows = await rowsOf('second.example/blog');

  // The other site shares the ids but not the titles: it claims none of them.
  const second = await runImport(app.services, secondSite);
  expect(second).toMatchObject({ created: 0, updated: 0 });
  expect(await rowsOf('')).toEqual(unsited);

  // Their own file finds them again, changes no content and keys them by its site.
  const first = await runImport(app.services, WXR_FIXTURE);
  expect(first).toMatchObject({ created: 0, updated: 0, unchanged: unsited.posts.length });
  expect(first.comments).toEqual({ created: 0, unchanged: unsited.comments.length });
  const claimed = await rowsOf('wptest.io/demo');
  const withoutSite = <T extends { source_site: string }>(rows: T[]) =>
    rows.map(({ source_site: _, ...rest }) => rest);
  expect(withoutSite(claimed.posts)).toEqual(withoutSite(unsited.posts));
  expect(withoutSite(claimed.comments)).toEqual(withoutSite(unsited.comments));
  expect(await rowsOf('second.example/blog')).toEqual(secondRows);
});

it("shows an imported post's old byline without the site writer's author card or a dead author link", async () => {
  const post = await app.services
    .db('posts')
    .where({ source_site: 'wptest.io/demo', status: 'published' })
    .whereNotNull('author_name')
    .first('slug', 'author_name');
  const page = await (await fetch(`${app.url}/post/${post.slug}`)).text();
  expect(page).toContain(post.author_name);
  expect(page).not.toContain('class="author-card');
  expect(page).not.toContain(`/author/${encodeURIComponent(post.author_name)}`);
});
