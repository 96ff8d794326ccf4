import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_MESSAGES } from '../../src/blog/messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
let post: { id: number; slug: string };
let top: number;
let other: number;

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startTestApp({ env: { PAGE_CACHE_TTL_SECONDS: '60' } }),
    launchBrowser(),
  ]);
  await seedDemo(app);
  post = await publishedPost(app);
  [top, other] = (
    await app.services
      .db('comments')
      .insert([
        {
          post_id: post.id,
          author: 'Rosa',
          email: 'rosa@example.com',
          content: 'Where do you find the time?',
          approved: true,
        },
        {
          post_id: post.id,
          author: 'Omar',
          email: 'omar@example.com',
          content: 'Great read.',
          approved: true,
        },
      ])
      .returning('id')
  ).map((r) => r.id as number);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** What a person sees after a wait long enough to have typed: the time trap must not fire. */
const typingTime = () => new Promise((r) => setTimeout(r, 2_100));

async function fillReply(page: Page, values: { name: string; email: string; reply: string }) {
  const form = page.locator('.reply-form');
  await form.getByLabel('Name').fill(values.name);
  await form.getByLabel('Email').fill(values.email);
  await form.getByLabel('Reply', { exact: true }).fill(values.reply);
}

describe('threaded comments', () => {
  it('replies without JavaScript, moderated; the admin answers from moderation; shown nested with the Author mark', async () => {
    const reader = await newContext(browser, app.url, { javaScriptEnabled: false });
    const page = await reader.newPage();
    await page.goto(`/post/${post.slug}`);
    await page.locator(`#comment-${top}`).getByRole('link', { name: 'Reply to Rosa' }).click();
    await page.waitForURL(`**/post/${post.slug}?replyTo=${top}#reply-${top}`);
    // The form opens under Rosa's comment.
    const form = page.locator(`#comment-${top} #reply-${top}`);
    expect(await form.getByRole('heading', { name: 'Reply to Rosa' }).isVisible()).toBe(true);
    await typingTime();
    await fillReply(page, { name: 'Dana', email: 'dana-at-example.com', reply: 'Early mornings, mostly.' });
    await form.getByLabel(BLOG_MESSAGES.notifyLabel).check();
    await form.getByRole('button', { name: 'Post Reply' }).click();
    await page.waitForLoadState();
    // Refused: the values come back in the same form under the comment.
    const again = page.locator(`#comment-${top} #reply-${top}`);
    expect(await again.getByText(BLOG_MESSAGES.invalidEmail.description).isVisible()).toBe(true);
    expect(await again.getByLabel('Reply', { exact: true }).inputValue()).toBe('Early mornings, mostly.');
    expect(await again.getByLabel(BLOG_MESSAGES.notifyLabel).isChecked()).toBe(true);
    await again.getByLabel('Email').fill('dana@example.com');
    await again.getByRole('button', { name: 'Post Reply' }).click();
    await page.waitForLoadState();
    expect(
      await page.locator(`#reply-${top}`).getByText(BLOG_MESSAGES.replyPending.description).isVisible(),
    ).toBe(true);
    const stored = await app.services.db('comments').where({ author: 'Dana' }).first();
    expect(stored).toMatchObject({ parent_id: top, reply_to_id: top, approved: false, notify: true });
    // Moderated: not on the page yet.
    await page.goto(`/post/${post.slug}`);
    expect(await page.getByText('Early mornings, mostly.').count()).toBe(0);

    // The admin sees whom it answers, approves it and answers it from moderation.
    const adminSession = await signedInSession(app, { role: 'admin', firstName: 'Alex', lastName: 'Morgan' });
    const adminContext = await newContext(browser, app.url);
    await addSessionCookie(adminContext, app.url, adminSession.sid);
    const admin = await adminContext.newPage();
    const problems = await watchPage(admin);
    await admin.goto('/admin?tab=comments&view=pending');
    await admin.waitForSelector('html[data-hydrated]');
    const card = admin.locator('.admin-item', { hasText: 'Early mornings, mostly.' });
    expect(await card.getByRole('link', { name: 'Reply to Rosa' }).count()).toBe(1);
    await expectAccessible(admin);
    await card.getByRole('button', { name: 'Approve comment by Dana' }).click();
    await expect.poll(() => admin.getByRole('status').textContent()).toContain('Comment approved');
    await admin.goto('/admin?tab=comments&view=all');
    await admin.waitForSelector('html[data-hydrated]');
    const approved = admin.locator('.admin-item', { hasText: 'Early mornings, mostly.' });
    await approved.getByText('Reply to Dana', { exact: true }).click();
    await approved.getByLabel('Your reply').fill('Same here, with coffee.');
    await approved.getByRole('button', { name: 'Publish reply to Dana' }).click();
    await expect.poll(() => admin.getByRole('status').textContent()).toContain('Reply published');
    // The form closes empty: the same answer is not sent twice.
    await expect.poll(() => approved.getByLabel('Your reply').isVisible()).toBe(false);
    await approved.getByText('Reply to Dana', { exact: true }).click();
    expect(await approved.getByLabel('Your reply').inputValue()).toBe('');
    expect(problems).toEqual([]);

    // Both shown under Rosa's comment (one level), the admin's marked Author.
    await page.goto(`/post/${post.slug}`);
    const replies = page.locator(`#comment-${top} .comment-replies > li`);
    expect(await replies.count()).toBe(2);
    expect(await replies.nth(0).textContent()).toContain('Early mornings, mostly.');
    expect(await replies.nth(1).textContent()).toContain('Same here, with coffee.');
    expect(await replies.nth(1).locator('.comment-author-mark').textContent()).toBe('Author');
    expect(await replies.nth(0).locator('.comment-author-mark').count()).toBe(0);
    expect(await page.content()).not.toContain('dana@example.com');
    await reader.close();
    await adminContext.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      it(`opens the reply form in place with JavaScript (${colorScheme}, ${width} px)`, async () => {
        const context = await newContext(browser, app.url, { colorScheme, width });
        const page = await context.newPage();
        const problems = await watchPage(page);
        await page.goto(`/post/${post.slug}`);
        await page.locator(`#comment-${other}`).getByRole('link', { name: 'Reply to Omar' }).click();
        // No page load: the plain page's script put the form under the comment.
        expect(page.url()).toBe(`${app.url}/post/${post.slug}`);
        const form = page.locator(`#comment-${other} #reply-${other}`);
        expect(await form.getByRole('heading', { name: 'Reply to Omar' }).isVisible()).toBe(true);
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute('name')))
          .toBe('author');
        await expectAccessible(page);
        // For a look at the thread in each theme and width: the open form, the replies, the Author mark.
        await page
          .locator('.comment-list')
          .screenshot({ path: `/tmp/thread-${colorScheme}-${width}.png`, animations: 'disabled' });
        if (colorScheme === 'light' && width === 1280) {
          // Cancel closes it; Reply opens it again, under another comment too.
          await form.getByRole('link', { name: 'Cancel' }).click();
          expect(await page.locator('.reply-form').count()).toBe(0);
          await page.locator(`#comment-${other}`).getByRole('link', { name: 'Reply to Omar' }).click();
          await typingTime();
          await fillReply(page, { name: 'Lee', email: 'lee@example.com', reply: 'Agreed, Omar.' });
          await page.locator('.reply-form').getByRole('button', { name: 'Post Reply' }).click();
          await page.waitForURL(`**/post/${post.slug}?replyTo=${other}#reply-${other}`);
          expect(
            await page
              .locator(`#reply-${other}`)
              .getByText(BLOG_MESSAGES.replyPending.description)
              .isVisible(),
          ).toBe(true);
          expect(await app.services.db('comments').where({ author: 'Lee' }).first()).toMatchObject({
            parent_id: other,
            approved: false,
            notify: false,
          });
        }
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }
});
