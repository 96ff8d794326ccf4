import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_HAS_ERRORS } from '../../src/app/components/FormErrors.tsx';
import { POST_MESSAGES } from '../../src/blog/post-messages.ts';
import { SETTINGS_MESSAGES } from '../../src/settings/settings-schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  await seedDemo(app);
  const admin = await signedInSession(app, { role: 'admin' });
  const context = await newContext(browser, app.url);
  await addSessionCookie(context, app.url, admin.sid);
  page = await context.newPage();
  problems = await watchPage(page);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function open(path: string) {
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated]');
}

describe('the demo content as a new writer finds it', () => {
  it('saves every seeded post, product and the settings untouched', { timeout: 240_000 }, async () => {
    const posts: { id: number; title: string; content: string; updated_at: Date }[] = await app.services
      .db('posts')
      .select('id', 'title', 'content', 'updated_at');
    const revisions = Number((await app.services.db('post_revisions').count('* as n'))[0].n);
    const products: { id: number }[] = await app.services.db('products').select('id');
    expect(posts.length).toBeGreaterThan(5);
    expect(products.length).toBeGreaterThan(3);
    for (const post of posts) {
      await open(`/admin/posts/${post.id}`);
      await page.getByRole('button', { name: 'Update Post' }).click();
      await page.waitForURL(/\/admin\?tab=posts/, { timeout: 15_000 }).catch(async () => {
        throw new Error(
          `post ${post.id} "${post.title}" was not saved: ${await page.locator('.field-error').allTextContents()}`,
        );
      });
    }
    const saved = await app.services
      .db('posts')
      .whereIn(
        'id',
        posts.map((p) => p.id),
      )
      .select('id', 'content', 'updated_at');
    // Saved as they were: nothing changed, so nothing is written (no CRLF line ends, no revision).
    for (const row of saved) {
      const before = posts.find((p) => p.id === row.id);
      expect(row.content, `post ${row.id} content`).toBe(before?.content);
      expect(row.updated_at.getTime(), `post ${row.id} updated`).toBe(before?.updated_at.getTime());
    }
    expect(Number((await app.services.db('post_revisions').count('* as n'))[0].n)).toBe(revisions);
    for (const product of products) {
      await open(`/admin/products/${product.id}`);
      await page.getByRole('button', { name: 'Update Product' }).click();
      await page.waitForURL(/\/admin\?tab=products/, { timeout: 15_000 }).catch(async () => {
        throw new Error(
          `product ${product.id} was not saved: ${await page.locator('.field-error').allTextContents()}`,
        );
      });
    }
    await open('/admin?tab=settings');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => page.getByText(SETTINGS_MESSAGES.saved).count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('moves focus to the first field in error and says so at the button', async () => {
    const post = await app.services.db('posts').first('id');
    await open(`/admin/posts/${post.id}`);
    await page.getByLabel('Featured image URL').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Update Post' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('featuredImage');
    expect(await page.locator('#featuredImage-error').textContent()).toBe(POST_MESSAGES.invalidImage);
    const atButton = page.getByText(FORM_HAS_ERRORS);
    await expect.poll(() => atButton.isVisible()).toBe(true);
    const inView = await page.locator('#featuredImage').evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    // Once the field is edited its message is stale, and goes; the others stay until the next try.
    await page.getByLabel('Featured image URL').fill('https://example.com/photo.png');
    await expect.poll(() => page.locator('#featuredImage-error').count()).toBe(0);
  });

  /** Submits a form with one bad field and checks that focus, scroll and the note at the button follow. */
  async function refusedAt(fieldId: string, submit: string, errorId = `${fieldId}-error`) {
    await page.getByRole('button', { name: submit }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(fieldId);
    await expect.poll(() => page.locator(`#${fieldId}`).getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${errorId}`).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(FORM_HAS_ERRORS).isVisible()).toBe(true);
    const inView = await page.locator(`#${fieldId}`).evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
  }

  it('does the same in the product editor and the settings', async () => {
    const product = await app.services.db('products').first('id');
    await open(`/admin/products/${product.id}`);
    await page.getByLabel('Image 1 URL').fill('javascript:alert(1)');
    // From the button at the bottom: the field in error is out of view until focus brings it back.
    await page.getByRole('button', { name: 'Update Product' }).scrollIntoViewIfNeeded();
    // The images share one message, under the list.
    await refusedAt('image-0', 'Update Product', 'images-error');

    await open('/admin?tab=settings');
    await page.getByLabel('LinkedIn').fill('not a web address');
    await page.getByLabel('Author profile image URL').fill('javascript:alert(1)');
    await refusedAt('settings-authorProfileImage', 'Save Settings');
    expect(await page.locator('#settings-linkedin-error').isVisible()).toBe(true);
  });
});
