import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueFormToken } from '../../src/blog/comments.ts';
import { BLOG_MESSAGES } from '../../src/blog/messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import { launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
let post: { id: number; slug: string };
/** Another post, never opened before its test: a stored page carries the token of its first render. */
let freshPost: { id: number; slug: string };

beforeAll(async () => {
  // The page cache on, as readers get it: stored pages must be whole without scripts too.
  [app, browser] = await Promise.all([
    startTestApp({ env: { PAGE_CACHE_TTL_SECONDS: '60' } }),
    launchBrowser(),
  ]);
  await seedDemo(app);
  post = await publishedPost(app);
  freshPost = await app.services
    .db('posts')
    .where({ status: 'published' })
    .whereNot({ id: post.id })
    .first('id', 'slug');
  await app.services.db('comments').insert(
    ['First approved remark', 'Second approved remark', 'Third approved remark'].map((content, i) => ({
      post_id: post.id,
      author: `Reader ${i}`,
      email: `reader${i}@example.com`,
      content,
      approved: true,
    })),
  );
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function storedComments(content: string) {
  return app.services.db('comments').where({ content }).select('held_reason');
}

async function scriptlessPage(): Promise<Page> {
  const context = await newContext(browser, app.url, { javaScriptEnabled: false });
  return context.newPage();
}

/** What a person sees after a wait long enough to have typed: the time trap must not fire. */
const typingTime = () => new Promise((r) => setTimeout(r, 2_100));

describe('comments without JavaScript', () => {
  it('shows every approved comment of the first page in the HTML, on a cache miss and a hit', async () => {
    const page = await scriptlessPage();
    for (const expected of ['MISS', 'HIT']) {
      const res = await page.goto(`/post/${post.slug}`);
      expect(res?.headers()['x-cache']).toBe(expected);
      for (const content of ['First approved remark', 'Second approved remark', 'Third approved remark'])
        expect(await page.getByText(content).isVisible(), `${content} (${expected})`).toBe(true);
      expect(await page.locator('[hidden] .comment, .comment [hidden]').count()).toBe(0);
      expect(await page.locator('#comments-heading').count()).toBe(1);
    }
    await page.context().close();
  });

  it('keeps what was typed after a refusal, and stores the corrected comment sent at once', async () => {
    const page = await scriptlessPage();
    await page.goto(`/post/${post.slug}`);
    await typingTime();
    await page.locator('#leave-comment').getByLabel('Name').fill('Grace');
    await page.locator('#leave-comment').getByLabel('Email').fill('grace-at-example.com');
    await page.locator('#leave-comment').getByLabel('Comment').fill('A remark typed with care.');
    await page.locator('#leave-comment').getByRole('button', { name: 'Post Comment' }).click();
    await page.waitForLoadState();
    expect(await page.getByText(BLOG_MESSAGES.invalidEmail.description).isVisible()).toBe(true);
    expect(await page.locator('#leave-comment').getByLabel('Name').inputValue()).toBe('Grace');
    expect(await page.locator('#leave-comment').getByLabel('Email').inputValue()).toBe(
      'grace-at-example.com',
    );
    expect(await page.locator('#leave-comment').getByLabel('Comment').inputValue()).toBe(
      'A remark typed with care.',
    );

    await page.locator('#leave-comment').getByLabel('Email').fill('grace@example.com');
    await page.locator('#leave-comment').getByRole('button', { name: 'Post Comment' }).click();
    await page.waitForLoadState();
    expect(await page.getByText(BLOG_MESSAGES.commentPending.description).isVisible()).toBe(true);
    expect(await storedComments('A remark typed with care.')).toEqual([{ held_reason: null }]);
    await page.context().close();
  });

  it('never says a comment was submitted without storing it', async () => {
    const page = await scriptlessPage();
    // An empty form sent at once: the validation message, not a success.
    await page.goto(`/post/${freshPost.slug}`);
    await page.locator('#leave-comment').getByRole('button', { name: 'Post Comment' }).click();
    await page.waitForLoadState();
    expect(await page.getByText(BLOG_MESSAGES.missingInfo.description).isVisible()).toBe(true);
    expect(await page.getByText(BLOG_MESSAGES.commentPending.title).count()).toBe(0);

    // A whole comment sent faster than a person writes: asked again, values kept, then stored.
    // The form's token is made just now: the stored page's own is as old as its first render,
    // which a slow machine can take past the time trap before the fields are filled.
    await page.goto(`/post/${freshPost.slug}`);
    await page.locator('#leave-comment').getByLabel('Name').fill('Quick');
    await page.locator('#leave-comment').getByLabel('Email').fill('quick@example.com');
    await page.locator('#leave-comment').getByLabel('Comment').fill('Sent in a hurry.');
    await page
      .locator('#leave-comment input[name="formToken"]')
      .evaluate((input, token) => input.setAttribute('value', token), await issueFormToken(app.services.db));
    await page.locator('#leave-comment').getByRole('button', { name: 'Post Comment' }).click();
    await page.waitForLoadState();
    expect(await page.getByText(BLOG_MESSAGES.commentTooFast.description).isVisible()).toBe(true);
    expect(await storedComments('Sent in a hurry.')).toEqual([]);
    expect(await page.locator('#leave-comment').getByLabel('Comment').inputValue()).toBe('Sent in a hurry.');
    await typingTime();
    await page.locator('#leave-comment').getByRole('button', { name: 'Post Comment' }).click();
    await page.waitForLoadState();
    expect(await page.getByText(BLOG_MESSAGES.commentPending.description).isVisible()).toBe(true);
    expect(await storedComments('Sent in a hurry.')).toHaveLength(1);

    // The hidden field filled (a bot, or a person's autofill): held for the moderator, not dropped.
    await page.goto(`/post/${freshPost.slug}`);
    await typingTime();
    await page.locator('#leave-comment').getByLabel('Name').fill('Filler');
    await page.locator('#leave-comment').getByLabel('Email').fill('filler@example.com');
    await page.locator('#leave-comment').getByLabel('Comment').fill('Autofilled everything.');
    await page.locator('#comment-website').fill('https://spam.example', { force: true });
    await page.locator('#leave-comment').getByRole('button', { name: 'Post Comment' }).click();
    await page.waitForLoadState();
    expect(await page.getByText(BLOG_MESSAGES.commentPending.description).isVisible()).toBe(true);
    expect(await storedComments('Autofilled everything.')).toEqual([
      { held_reason: BLOG_MESSAGES.honeypotReason },
    ]);
    await page.context().close();
  });
});

describe('comments with JavaScript', () => {
  it('keeps the first render as the start of the time trap when a refused comment is sent again at once', async () => {
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    // A post reached from the home page is rendered by React (opened directly, it is plain HTML).
    await page.goto('/');
    await page.waitForSelector('html[data-hydrated]');
    await page.locator(`a[href="/post/${post.slug}"]`).first().click();
    await page.waitForURL(`**/post/${post.slug}`);
    await typingTime();
    await page.locator('#leave-comment').getByLabel('Name').fill('Ada');
    await page.locator('#leave-comment').getByLabel('Email').fill('ada-example.com');
    await page.locator('#leave-comment').getByLabel('Comment').fill('Hydrated remark.');
    await page.locator('#leave-comment').getByRole('button', { name: 'Post Comment' }).click();
    await expect.poll(() => page.getByText(BLOG_MESSAGES.invalidEmail.description).count()).toBe(1);
    // The field the refusal is about is marked and has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('comment-email');
    expect(await page.locator('#comment-email').getAttribute('aria-invalid')).toBe('true');
    await page.locator('#leave-comment').getByLabel('Email').fill('ada@example.com');
    await page.locator('#leave-comment').getByRole('button', { name: 'Post Comment' }).click();
    await expect.poll(() => page.getByText(BLOG_MESSAGES.commentPending.description).count()).toBe(1);
    expect(await storedComments('Hydrated remark.')).toHaveLength(1);
    // The refusal is a 400, which Chromium reports on the console; nothing else may be.
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
    await context.close();
  });
  it('on a post opened directly, a reply sent at once after a refused comment counts from the first render', async () => {
    // A post no test opened before (a stored page would not show the comment added below).
    const other = await app.services
      .db('posts')
      .where({ status: 'published' })
      .whereNotIn('id', [post.id, freshPost.id])
      .first('id', 'slug');
    const [{ id: parent }] = await app.services
      .db('comments')
      .insert({
        post_id: other.id,
        author: 'Kim',
        email: 'kim@example.com',
        content: 'Kim’s remark',
        approved: true,
      })
      .returning('id');
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    // Opened directly: plain HTML, whose script opens a reply form from the page's template.
    await page.goto(`/post/${other.slug}`);
    await typingTime();
    await page.locator('#leave-comment').getByLabel('Email').fill('lin-at-example.com');
    await page.locator('#leave-comment').getByRole('button', { name: 'Post Comment' }).click();
    await page.waitForLoadState();
    expect(await page.getByText(BLOG_MESSAGES.missingInfo.description).isVisible()).toBe(true);
    // Right away, a reply instead, from the re-rendered page's template.
    await page.locator(`#comment-${parent}`).getByRole('link', { name: 'Reply to Kim' }).click();
    const form = page.locator(`#comment-${parent} .reply-form`);
    await form.getByLabel('Name').fill('Lin');
    await form.getByLabel('Email').fill('lin@example.com');
    await form.getByLabel('Reply', { exact: true }).fill('Sent at once after the refusal.');
    await form.getByRole('button', { name: 'Post Reply' }).click();
    await page.waitForLoadState();
    expect(await page.getByText(BLOG_MESSAGES.commentTooFast.description).count()).toBe(0);
    expect(
      await app.services.db('comments').where({ content: 'Sent at once after the refusal.' }).first(),
    ).toMatchObject({ parent_id: parent });
    await context.close();
  });

  it('opens a reply form under a comment without a reload on a page rendered by React, and posts the reply in place', async () => {
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    const problems = await watchPage(page);
    await page.goto('/');
    await page.waitForSelector('html[data-hydrated]');
    await page.locator(`a[href="/post/${post.slug}"]`).first().click();
    await page.waitForURL(`**/post/${post.slug}`);
    const parent = await app.services.db('comments').where({ content: 'First approved remark' }).first('id');
    // Marked on the window: a document load would drop it.
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    await page.locator(`#comment-${parent.id}`).getByRole('link', { name: 'Reply to Reader 0' }).click();
    await page.waitForURL(`**/post/${post.slug}?replyTo=${parent.id}#reply-${parent.id}`);
    const form = page.locator(`#comment-${parent.id} #reply-${parent.id}`);
    await form.getByRole('heading', { name: 'Reply to Reader 0' }).waitFor();
    await typingTime();
    await form.getByLabel('Name').fill('Hedy');
    await form.getByLabel('Email').fill('hedy@example.com');
    await form.getByLabel('Reply', { exact: true }).fill('A hydrated reply.');
    await form.getByRole('button', { name: 'Post Reply' }).click();
    await expect.poll(() => form.getByText(BLOG_MESSAGES.replyPending.description).count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await app.services.db('comments').where({ content: 'A hydrated reply.' }).first()).toMatchObject({
      parent_id: parent.id,
      approved: false,
    });
    // The typed reply is cleared once it is taken.
    expect(await form.getByLabel('Reply', { exact: true }).inputValue()).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });
});
