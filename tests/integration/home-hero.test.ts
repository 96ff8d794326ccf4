import { afterAll, beforeAll, expect, it } from 'vitest';
import { readingMinutes } from '../../src/blog/reading.ts';
import { getBlogSettings } from '../../src/settings/settings.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
  admin = await signedInSession(app, { role: 'admin' });
});
afterAll(() => app?.close());

const home = async () => (await fetch(`${app.url}/`)).text();
const section = (html: string, className: string) =>
  new RegExp(`<(section|article) class="${className}[^"]*"[^>]*>(.*?)</\\1>`, 's').exec(html)?.[2] ?? '';

/** The lead's title, linking to the post. */
const titleLink = (post: { slug: string; title: string }) =>
  new RegExp(`<h2 [^>]*><a href="/post/${post.slug}"[^>]*>${post.title}</a></h2>`);

const saveSettings = async (changes: Record<string, unknown>) => {
  const current = await getBlogSettings(app.services.db);
  return fetch(`${app.url}/api/settings`, {
    method: 'PUT',
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...current, ...changes }),
  });
};

it('introduces the writer from the settings, with no stock Welcome', async () => {
  const settings = await getBlogSettings(app.services.db);
  const hero = section(await home(), 'hero home-hero');
  expect(hero).toContain(`<h1 id="home-title">${settings.title}</h1>`);
  expect(hero).toContain(settings.description);
  expect(hero).toContain(`src="${settings.authorProfileImage}"`);
  expect(hero).toContain(`By <a href="/about">${settings.authorName}</a>`);
  expect(hero).not.toContain('home-hero-headline');
  expect(hero).not.toMatch(/welcome/i);
});

it('leads with the newest post, or the newest featured one: title, excerpt and reading time', async () => {
  const { db } = app.services;
  const newestFirst = [
    { column: 'published_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ] as const;
  const leadOf = async (html: string) => section(html, 'lead-post card');
  await db('posts').update({ featured: false });
  app.services.pageCache.invalidate();
  const newest = await db('posts')
    .where({ status: 'published' })
    .orderBy([...newestFirst])
    .first();
  expect(await leadOf(await home())).toMatch(titleLink(newest));

  const older = await db('posts')
    .where({ status: 'published' })
    .orderBy([...newestFirst])
    .offset(3)
    .first();
  await db('posts').where({ id: older.id }).update({ featured: true });
  // Written straight to the table: the admin's own writes would empty the page cache.
  app.services.pageCache.invalidate();
  const html = await home();
  const card = await leadOf(html);
  expect(card).toMatch(titleLink(older));
  expect(card).toContain(older.excerpt);
  expect(card).toContain(`${readingMinutes(older.content)}<!-- --> min read`);
  // Shown once: the newest is among the latest posts below, the lead is not.
  const latest = /<section class="container post-browser".*?<\/section>/s.exec(html)?.[0] ?? '';
  expect(latest).toContain(`>${newest.title}<`);
  expect(latest).not.toContain(`>${older.title}<`);
});

it("shows the writer's short line, and refuses one too long", async () => {
  const saved = await saveSettings({ homeHeadline: '  Welcome to my notebook  ' });
  expect(saved.status).toBe(200);
  expect((await saved.json()).settings.homeHeadline).toBe('Welcome to my notebook');
  const hero = section(await home(), 'hero home-hero');
  expect(hero).toContain('<p class="home-hero-headline">Welcome to my notebook</p>');
  const public_ = await (await fetch(`${app.url}/api/settings`)).json();
  expect(public_.settings.homeHeadline).toBe('Welcome to my notebook');

  const tooLong = await saveSettings({ homeHeadline: 'x'.repeat(201) });
  expect(tooLong.status).toBe(400);
  expect((await tooLong.json()).message).toContain('Keep the home headline to 200 characters or fewer');

  expect((await saveSettings({ homeHeadline: '' })).status).toBe(200);
  expect(section(await home(), 'hero home-hero')).not.toContain('home-hero-headline');
});

it('saves the short line from the admin settings form', async () => {
  const current = await getBlogSettings(app.services.db);
  const form = new URLSearchParams({
    intent: 'save-settings',
    title: current.title,
    description: current.description,
    authorName: current.authorName,
    authorBio: current.authorBio,
    authorProfileImage: current.authorProfileImage ?? '',
    homeHeadline: 'Notes from the workshop',
  });
  const res = await fetch(`${app.url}/admin?tab=settings`, {
    method: 'POST',
    headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  expect(res.status).toBeLessThan(400);
  expect((await getBlogSettings(app.services.db)).homeHeadline).toBe('Notes from the workshop');
});
