import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost, updatePost } from '../../src/blog/post-editor.ts';
import { POST_MESSAGES } from '../../src/blog/post-messages.ts';
import { postInputSchema } from '../../src/blog/post-schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { markdownValue, richText } from '../support/editor.ts';

let app: TestApp;
let browser: Browser;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  admin = await signedInSession(app, { role: 'admin', firstName: 'Ada', lastName: 'Lovelace' });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function newPost(title: string) {
  const input = postInputSchema.parse({
    title,
    content: 'The words readers see now.',
    excerpt: 'An excerpt',
    category: 'Technology',
    status: 'published',
  });
  return createPost(app.services.db, app.services.queues, input, admin.user.id);
}

async function adminContext() {
  const context = await newContext(browser, app.url);
  await addSessionCookie(context, app.url, admin.sid);
  return context;
}

async function openEditor(page: Page, id: number) {
  await page.goto(`/admin/posts/${id}`);
  await page.waitForSelector('html[data-hydrated]');
}

/** What the rich editor shows and the Markdown the form will send, for one-paragraph posts. */
const shown = async (page: Page) => {
  const text = await richText(page).textContent();
  return { text, markdown: await markdownValue(page) };
};
const both = (text: string) => ({ text, markdown: text });
const settings = (page: Page) => page.getByRole('complementary', { name: 'Post settings' });
const status = (page: Page) => page.locator('.autosave-status').first();

describe('the editor keeps the writer’s work', () => {
  it('autosaves after a pause: a closed tab’s text is offered on reopening, the live post unchanged', {
    timeout: 90_000,
  }, async () => {
    const post = await newPost('Closed Tab');
    const context = await adminContext();
    const page = await context.newPage();
    const problems = await watchPage(page);
    await openEditor(page, post.id);
    await richText(page).fill('A paragraph written just before the tab closed.');
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toMatch(/^Saved at \d\d:\d\d$/);
    expect(problems).toEqual([]);
    await page.close();

    // The live post is as it was until an explicit save.
    expect((await app.services.db('posts').where({ id: post.id }).first()).content).toBe(
      'The words readers see now.',
    );
    const again = await context.newPage();
    await openEditor(again, post.id);
    await expect.poll(() => shown(again)).toEqual(both('The words readers see now.'));
    const offer = again.getByRole('region', { name: 'Unsaved draft' });
    await offer.getByRole('button', { name: 'Restore draft' }).click();
    await expect.poll(() => shown(again)).toEqual(both('A paragraph written just before the tab closed.'));
    await again.getByRole('button', { name: 'Update Post' }).click();
    await again.waitForURL('**/admin?tab=posts**');
    expect((await app.services.db('posts').where({ id: post.id }).first()).content).toBe(
      'A paragraph written just before the tab closed.',
    );
    await context.close();
  });

  it('keeps a new post’s text in the browser until Create Post, which creates it once', {
    timeout: 90_000,
  }, async () => {
    const title = 'Begun Before The Tab Closed';
    const context = await adminContext();
    const page = await context.newPage();
    const problems = await watchPage(page);
    await page.goto('/admin/posts/new');
    await page.waitForSelector('html[data-hydrated]');
    await page.getByLabel('Title', { exact: true }).fill(title);
    await richText(page).fill('The first words of a post not yet created.');
    await expect
      .poll(() => status(page).textContent(), { timeout: 15_000 })
      .toMatch(/^Saved in this browser at \d\d:\d\d$/);
    expect(problems).toEqual([]);
    await page.close();
    expect(await app.services.db('posts').where({ title })).toEqual([]);

    const again = await context.newPage();
    const againProblems = await watchPage(again);
    await again.goto('/admin/posts/new');
    await again.waitForSelector('html[data-hydrated]');
    await again
      .getByRole('region', { name: 'Unsaved draft' })
      .getByRole('button', { name: 'Restore draft' })
      .click();
    expect(await again.getByLabel('Title', { exact: true }).inputValue()).toBe(title);
    await expect.poll(() => shown(again)).toEqual(both('The first words of a post not yet created.'));
    await again.getByLabel('Excerpt', { exact: true }).fill('Kept through a closed tab');
    await again.getByLabel('Category', { exact: true }).selectOption('Technology');
    await again.getByRole('button', { name: 'Create Post' }).click();
    await again.waitForURL('**/admin?tab=posts**');
    const created = await app.services.db('posts').where({ title });
    expect(created).toHaveLength(1);
    expect(created[0].content).toBe('The first words of a post not yet created.');
    expect(againProblems).toEqual([]);

    // The kept draft went with the save: the next new post starts blank, with nothing offered.
    await again.goto('/admin/posts/new');
    await again.waitForSelector('html[data-hydrated]');
    expect(await again.getByRole('region', { name: 'Unsaved draft' }).count()).toBe(0);
    expect(await again.getByLabel('Title', { exact: true }).inputValue()).toBe('');
    await context.close();
  });

  it('refuses the second tab’s save with the message, keeping its text', { timeout: 90_000 }, async () => {
    const post = await newPost('Two Tabs');
    const context = await adminContext();
    const [first, second] = [await context.newPage(), await context.newPage()];
    const problems = await watchPage(second);
    await openEditor(first, post.id);
    await openEditor(second, post.id);

    await richText(first).fill('The first tab’s version.');
    await expect.poll(() => status(first).textContent(), { timeout: 15_000 }).toMatch(/^Saved at/);

    await richText(second).fill('The second tab’s version.');
    await expect
      .poll(() => status(second).textContent(), { timeout: 15_000 })
      .toContain(POST_MESSAGES.changedElsewhere);
    await second.getByRole('button', { name: 'Update Post' }).click();
    await expect
      .poll(() => second.getByRole('alert').textContent())
      .toContain(POST_MESSAGES.changedElsewhere);
    await expect.poll(() => shown(second)).toEqual(both('The second tab’s version.'));
    expect(await second.getByRole('link', { name: 'open the saved version in a new tab' }).count()).toBe(1);
    expect((await app.services.db('posts').where({ id: post.id }).first()).content).toBe(
      'The words readers see now.',
    );

    await first.getByRole('button', { name: 'Update Post' }).click();
    await first.waitForURL('**/admin?tab=posts**');
    expect((await app.services.db('posts').where({ id: post.id }).first()).content).toBe(
      'The first tab’s version.',
    );
    // The refusals (the autosave's and the save's) answered 409 on purpose; nothing else may appear.
    expect(new Set(problems)).toEqual(
      new Set(['console: Failed to load resource: the server responded with a status of 409 (Conflict)']),
    );
    await context.close();
  });

  it('without JavaScript, refuses the stale save and shows the writer’s own fields again', {
    timeout: 90_000,
  }, async () => {
    const post = await newPost('Plain Tab');
    const context = await newContext(browser, app.url, { javaScriptEnabled: false });
    await addSessionCookie(context, app.url, admin.sid);
    const page = await context.newPage();
    await page.goto(`/admin/posts/${post.id}`);
    await page.getByLabel('Title', { exact: true }).fill('The plain tab’s title');
    await page.getByLabel('Content', { exact: true }).fill('The plain tab’s words.');
    await page.getByLabel('Excerpt', { exact: true }).fill('The plain tab’s excerpt');

    // Meanwhile another tab saves.
    const other = postInputSchema.parse({
      title: 'The other tab’s title',
      content: 'The other tab’s words.',
      excerpt: 'The other tab’s excerpt',
      category: 'Design',
      status: 'published',
    });
    await updatePost(app.services.db, app.services.queues, post.id, other, {
      authorId: admin.user.id,
      baseVersion: post.version,
    });

    await page.getByRole('button', { name: 'Update Post' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('alert').textContent()).toContain(POST_MESSAGES.changedElsewhere);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('The plain tab’s title');
    expect(await page.getByLabel('Content', { exact: true }).inputValue()).toBe('The plain tab’s words.');
    expect(await page.getByLabel('Excerpt', { exact: true }).inputValue()).toBe('The plain tab’s excerpt');
    expect(await page.getByLabel('Category', { exact: true }).inputValue()).toBe('Technology');
    expect((await app.services.db('posts').where({ id: post.id }).first()).title).toBe(
      'The other tab’s title',
    );
    await context.close();
  });

  it('lists revisions with a word diff and restores one', { timeout: 90_000 }, async () => {
    const post = await newPost('Revised');
    const context = await adminContext();
    const page = await context.newPage();
    const problems = await watchPage(page);
    await openEditor(page, post.id);
    await richText(page).fill('The words editors see later.');
    await page.getByRole('button', { name: 'Update Post' }).click();
    await page.waitForURL('**/admin?tab=posts**');

    await openEditor(page, post.id);
    // In the settings panel, beside the text.
    await settings(page).getByRole('button', { name: 'Revisions' }).click();
    const panel = settings(page).getByRole('region', { name: 'Revisions' });
    const entries = panel.getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(2);
    await entries
      .last()
      .getByRole('button', { name: /^Published .* by Ada Lovelace$/ })
      .click();
    expect(await panel.locator('del').allTextContents()).toEqual(['readers', 'now']);
    expect(await panel.locator('ins').allTextContents()).toEqual(['editors', 'later']);
    await expectAccessible(page);
    await panel.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => shown(page)).toEqual(both('The words readers see now.'));
    await expect.poll(() => entries.count()).toBe(3);
    expect(await entries.first().textContent()).toMatch(/^Restored /);
    expect((await app.services.db('posts').where({ id: post.id }).first()).content).toBe(
      'The words readers see now.',
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shares a preview link that an anonymous browser opens, until it is revoked', {
    timeout: 90_000,
  }, async () => {
    const post = await newPost('Shared Draft');
    const context = await adminContext();
    const page = await context.newPage();
    const problems = await watchPage(page);
    await openEditor(page, post.id);
    await settings(page).getByRole('button', { name: 'Share preview' }).click();
    const field = settings(page).getByLabel('Preview link (shows the post as last saved)');
    // Enter in the link's field copies nothing and saves nothing: the field sits in the post's form.
    await field.press('Enter');
    expect(new URL(page.url()).pathname).toBe(`/admin/posts/${post.id}`);
    await expect.poll(() => field.inputValue()).toMatch(/\/preview\/[A-Za-z0-9_-]{43}$/);
    const url = await field.inputValue();
    await expectAccessible(page);

    const stranger = await newContext(browser, app.url);
    const reader = await stranger.newPage();
    await reader.goto(url);
    expect(await reader.locator('.preview-banner strong').textContent()).toBe(POST_MESSAGES.previewBanner);
    expect(await reader.getByRole('heading', { level: 1 }).textContent()).toBe('Shared Draft');

    await page.getByRole('button', { name: 'Revoke preview link' }).click();
    await expect
      .poll(() => page.getByRole('status').allTextContents())
      .toContain(POST_MESSAGES.previewLinkRevoked);
    const gone = await reader.goto(url);
    expect(gone?.status()).toBe(404);
    expect(problems).toEqual([]);
    await stranger.close();
    await context.close();
  });
});
