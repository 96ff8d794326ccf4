import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost } from '../../src/blog/post-editor.ts';
import { POST_MESSAGES } from '../../src/blog/post-messages.ts';
import { INVALID_LINK, postInputSchema } from '../../src/blog/post-schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { markdownEditor } from '../support/editor.ts';

let app: TestApp;
let browser: Browser;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  admin = await signedInSession(app, { role: 'admin' });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function editorPage(path: string) {
  const context = await newContext(browser, app.url);
  await addSessionCookie(context, app.url, admin.sid);
  const page = await context.newPage();
  const problems = await watchPage(page);
  await page.goto(path);
  await page.waitForSelector('html[data-hydrated]');
  return { context, page, problems };
}

describe('editor keyboard, counts, paste and leaving', () => {
  it('formats with Ctrl+B, I and K (the address asked in a dialog), inserts YouTube from the toolbar, counts words, uploads a pasted image and saves with Ctrl+S', {
    timeout: 90_000,
  }, async () => {
    const input = postInputSchema.parse({
      title: 'Keyboard Post',
      content: 'start',
      excerpt: 'Keys',
      category: 'Technology',
    });
    const post = await createPost(app.services.db, app.services.queues, input, admin.user.id);
    const { context, page, problems } = await editorPage(`/admin/posts/${post.id}`);
    // The Markdown textarea's own keys: a writer who prefers it switches to it.
    const box = await markdownEditor(page);
    await box.fill('make this bold and this slanted, then a link');
    await expect.poll(() => page.locator('.editor-stats').textContent()).toBe('9 words · 1 min read');

    const select = async (word: string) => {
      const text = await box.inputValue();
      const at = text.indexOf(word);
      await box.evaluate(
        (el: HTMLTextAreaElement, [s, e]) => el.setSelectionRange(s, e),
        [at, at + word.length],
      );
    };
    await select('bold');
    await box.press('Control+b');
    await select('slanted');
    await box.press('Control+i');
    await select('link');
    await box.press('Control+k');
    // The address is asked in the page's dialog; the link wraps the words still selected behind it.
    const asked = page.getByRole('dialog', { name: 'Link' });
    await asked.getByLabel('Link URL').waitFor();
    await page.keyboard.type('example.com/page');
    await page.keyboard.press('Enter');
    expect(await asked.getByRole('alert').textContent()).toBe(INVALID_LINK);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('https://example.com/page');
    await page.keyboard.press('Enter');
    expect(await asked.count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('content');
    await expect
      .poll(() => box.inputValue())
      .toBe('make this **bold** and this *slanted*, then a [link](https://example.com/page)');
    // The toolbar's YouTube asks in the same dialog; its marker goes where the caret was.
    await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(el.value.length, el.value.length));
    await page.getByRole('button', { name: 'YouTube', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('dialog', { name: 'YouTube video' })
      .getByLabel('YouTube link or video id')
      .waitFor();
    await page.keyboard.type('https://youtu.be/dQw4w9WgXcQ');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => box.inputValue())
      .toBe(
        'make this **bold** and this *slanted*, then a [link](https://example.com/page)\n[youtube:dQw4w9WgXcQ]\n',
      );

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#2563eb' } })
      .png()
      .toBuffer();
    await box.evaluate((el: HTMLTextAreaElement, base64: string) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'pasted.png', { type: 'image/png' }));
      el.setSelectionRange(el.value.length, el.value.length);
      el.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    }, png.toString('base64'));
    await expect.poll(() => box.inputValue()).toMatch(/\n!\[pasted\]\(\/uploads\/[a-f0-9]{32}\.png\)\n$/);

    await box.press('Control+s');
    await page.waitForURL('**/admin?tab=posts**');
    const saved = await app.services.db('posts').where({ id: post.id }).first();
    expect(saved.content).toMatch(
      /^make this \*\*bold\*\* and this \*slanted\*, then a \[link\]\(https:\/\/example\.com\/page\)/,
    );
    expect(saved.content).toContain('![pasted](/uploads/');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks before leaving a new post with unsaved changes', { timeout: 60_000 }, async () => {
    const { context, page } = await editorPage('/admin/posts/new');
    const asked: string[] = [];
    let answer = false;
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void (answer ? dialog.accept() : dialog.dismiss());
    });
    await page.getByLabel('Title', { exact: true }).fill('Not saved yet');
    await page.getByRole('link', { name: '← Back to Admin' }).click();
    await expect.poll(() => asked).toEqual([POST_MESSAGES.leaveUnsaved]);
    expect(new URL(page.url()).pathname).toBe('/admin/posts/new');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Not saved yet');
    answer = true;
    await page.getByRole('link', { name: '← Back to Admin' }).click();
    await page.waitForURL('**/admin?tab=posts');
    expect(asked).toEqual([POST_MESSAGES.leaveUnsaved, POST_MESSAGES.leaveUnsaved]);
    await context.close();
  });
});
