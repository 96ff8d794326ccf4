import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BLOG_MESSAGES } from '../../src/blog/messages.ts';
import { SHOP_MESSAGES } from '../../src/shop/messages.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import {
  type ContextOptions,
  expectAccessible,
  newContext,
  setUpBrowserApp,
  watchPage,
} from '../support/browser.ts';
import { createProductRow } from '../support/shop.ts';

// Issue 23's first acceptance point: a reader's and a shopper's whole visit, in both themes at
// both widths with JavaScript, and once without it.

let admin: BrowserContext;
let post: { id: number; slug: string; title: string };
let top: number;

const stack = setUpBrowserApp();
beforeAll(async () => {
  await seedDemo(stack.app);
  post = await publishedPost(stack.app, 'typography-for-developers');
  [{ id: top }] = await stack.app.services
    .db('comments')
    .insert({
      post_id: post.id,
      author: 'Rosa',
      email: 'rosa@example.com',
      content: 'Where do you find the time?',
      approved: true,
    })
    .returning('id');
  const session = await signedInSession(stack.app, { role: 'admin', firstName: 'Alex', lastName: 'Morgan' });
  admin = await newContext(stack.browser, stack.app.url);
  await addSessionCookie(admin, stack.app.url, session.sid);
});

/** The comment form refuses posts sent faster than a person types. */
const typingTime = () => new Promise((r) => setTimeout(r, 2_100));

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

/** Waits for React on a scripted page; a plain page (or no script) is ready once loaded. */
async function ready(page: Page, scripted: boolean) {
  if (scripted) await page.waitForSelector('html[data-hydrated]');
  else await page.waitForLoadState();
}

/** The admin approves the reader's reply and answers it, from the moderation tab. */
async function approveAndAnswer(reader: string, reply: string, answer: string) {
  const page = await admin.newPage();
  const problems = await watchPage(page);
  await page.goto('/admin?tab=comments&view=pending');
  await page.waitForSelector('html[data-hydrated]');
  await page
    .locator('.admin-item', { hasText: reply })
    .getByRole('button', { name: `Approve comment by ${reader}` })
    .click();
  await expect.poll(() => page.getByRole('status').textContent()).toContain('Comment approved');
  await page.goto('/admin?tab=comments&view=all');
  await page.waitForSelector('html[data-hydrated]');
  const card = page.locator('.admin-item', { hasText: reply });
  await card.getByText(`Reply to ${reader}`, { exact: true }).click();
  await card.getByLabel('Your reply').fill(answer);
  await card.getByRole('button', { name: `Publish reply to ${reader}` }).click();
  await expect.poll(() => page.getByRole('status').textContent()).toContain('Reply published');
  expect(problems).toEqual([]);
  await page.close();
}

type Journey = { name: string; options: ContextOptions; tag: string };

const journeys: Journey[] = [
  ...(['light', 'dark'] as const).flatMap((colorScheme) =>
    [1280, 375].map((width) => ({
      name: `${colorScheme}, ${width} px`,
      options: { colorScheme, width },
      tag: `${colorScheme}${width}`,
    })),
  ),
  { name: 'without JavaScript, 375 px', options: { width: 375, javaScriptEnabled: false }, tag: 'plain' },
];

describe.each(journeys)('a reader and a shopper ($name)', ({ options, tag }) => {
  const scripted = options.javaScriptEnabled !== false;

  it('reads, moves on, opens a tag, replies and sees the Author answer nested, shares the link', {
    timeout: 60_000,
  }, async () => {
    const context = await newContext(stack.browser, stack.app.url, options);
    const page = await context.newPage();
    const problems = await watchPage(page);

    // A post opened directly is a plain page (no React runtime): nothing to wait for.
    await page.goto(`/post/${post.slug}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(post.title);
    const next = page.getByRole('link', { name: new RegExp(`^${BLOG_MESSAGES.nextPost}`) });
    const nextHref = (await next.getAttribute('href')) ?? '';
    const nextTitle = (await next.locator('.post-nav-title').textContent()) ?? '';
    await next.click();
    await page.waitForURL(`**${nextHref}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(nextTitle);

    const badge = page.locator('main .badge-tag').first();
    const tagHref = (await badge.getAttribute('href')) ?? '';
    expect(tagHref).toMatch(/^\/tag\//);
    await badge.click();
    await page.waitForURL(`**${tagHref}`);
    await page.locator('main').getByRole('link', { name: nextTitle }).first().waitFor();

    // A reply to Rosa: awaiting moderation, not shown until the admin approves it.
    const reader = `Dana ${tag}`;
    const reply = `Early mornings (${tag}).`;
    const answer = `Same here, with coffee (${tag}).`;
    await page.goto(`/post/${post.slug}`);
    await page.locator(`#comment-${top}`).getByRole('link', { name: 'Reply to Rosa' }).click();
    const form = page.locator(`#comment-${top} #reply-${top}`);
    await form.getByRole('heading', { name: 'Reply to Rosa' }).waitFor();
    await typingTime();
    await form.getByLabel('Name').fill(reader);
    await form.getByLabel('Email').fill(`dana-${tag}@example.com`);
    await form.getByLabel('Reply', { exact: true }).fill(reply);
    await form.getByRole('button', { name: 'Post Reply' }).click();
    await page.waitForURL(`**/post/${post.slug}?replyTo=${top}#reply-${top}`);
    await page.locator(`#reply-${top}`).getByText(BLOG_MESSAGES.replyPending.description).waitFor();
    await page.goto(`/post/${post.slug}`);
    expect(await page.getByText(reply).count()).toBe(0);

    await approveAndAnswer(reader, reply, answer);

    await page.goto(`/post/${post.slug}`);
    const replies = page.locator(`#comment-${top} .comment-replies > li`);
    const mine = replies.filter({ hasText: reply });
    const authors = replies.filter({ hasText: answer });
    expect(await mine.count()).toBe(1);
    expect(await mine.locator('.comment-author-mark').count()).toBe(0);
    expect(await authors.locator('.comment-author-mark').textContent()).toBe('Author');
    expect(await authors.isVisible()).toBe(true);

    const copy = page.getByRole('button', { name: BLOG_MESSAGES.copyLink });
    if (scripted) {
      await expectAccessible(page);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.app.url });
      await copy.click();
      await page.locator('.toaster .toast', { hasText: BLOG_MESSAGES.linkCopied }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        `${stack.app.services.publicUrl}/post/${post.slug}`,
      );
    } else {
      // The copy button needs a script, so it is not offered; sharing by mail is a plain link.
      expect(await copy.isVisible()).toBe(false);
      expect(await page.getByRole('link', { name: 'Email' }).getAttribute('href')).toContain(
        'mailto:?subject=',
      );
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('adds to the cart from the grid, signs up, buys, and sees the order in /account', {
    timeout: 60_000,
  }, async () => {
    const name = `Harbour Lamp ${tag}`;
    const product = await createProductRow(stack.app.services.db, { name, price: 3900, stock: 5 });
    const username = `mira_${tag}`;
    const email = `mira-${tag}@example.com`;
    const password = 'Harbour-lamp7!';
    const context = await newContext(stack.browser, stack.app.url, options);
    const page = await context.newPage();
    const problems = await watchPage(page);
    const main = page.locator('main');

    await page.goto(`/shop?search=${encodeURIComponent(name)}`);
    await ready(page, scripted);
    await page
      .locator(`#product-${product.id}`)
      .getByRole('button', { name: `${SHOP_MESSAGES.addToCart}: ${name}` })
      .click();
    await page.getByText(SHOP_MESSAGES.addedOne).waitFor();
    await page.getByRole('link', { name: 'Cart, 1 item' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/shop');

    await page.goto('/signup');
    await ready(page, scripted);
    await main.getByLabel('Username').fill(username);
    await main.getByLabel('Email').fill(email);
    await main.getByLabel('Password', { exact: true }).fill(password);
    await main.getByLabel('Confirm password').fill(password);
    await main.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(new RegExp(`/confirm-email\\?username=${username}`));
    const mail = await stack.smtp.waitFor((m) => m.to.includes(email));
    await main.getByLabel('Verification code').fill(codeIn(mail.text));
    await main.getByRole('button', { name: 'Confirm email' }).click();
    await page.waitForURL(/\/login$/);
    await ready(page, scripted);
    await main.getByLabel('Email').fill(email);
    await main.getByLabel('Password', { exact: true }).fill(password);
    await main.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => page.locator('.user-menu summary').textContent()).toContain(email);

    // The guest's cart came along at sign-in.
    await page.goto('/checkout');
    await ready(page, scripted);
    await page.getByLabel('Full name').fill('Mira Shopper');
    await main.getByLabel('Email').fill(email);
    await page.getByLabel('Address', { exact: true }).fill('7 Market Lane');
    await page.getByLabel('City').fill('Bristol');
    await page.getByLabel('ZIP code').fill('BS1 4DJ');
    await page.getByLabel('Country').selectOption('GB');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();

    await page.goto('/');
    await ready(page, scripted);
    await page.locator('details.user-menu > summary').click();
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.waitForURL('**/account');
    const order = page.getByRole('region', { name: 'My orders' }).getByTestId('account-order');
    await expect.poll(() => order.count()).toBe(1);
    expect(await order.textContent()).toContain(`1 × ${name}`);
    expect(await order.textContent()).toContain('Awaiting payment');
    expect(problems).toEqual([]);
    await context.close();
  });
});
