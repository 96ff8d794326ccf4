import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_COLOURS } from '../../src/app/admin/markdown-toolbar.ts';
import { createPost } from '../../src/blog/post-editor.ts';
import { POST_MESSAGES } from '../../src/blog/post-messages.ts';
import { INVALID_LINK, postInputSchema } from '../../src/blog/post-schema.ts';
import { demoPosts } from '../../src/demo/demo-content.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import {
  type ContextOptions,
  expectAccessible,
  launchBrowser,
  newContext,
  watchPage,
} from '../support/browser.ts';
import { richText } from '../support/editor.ts';
import { createProductRow } from '../support/shop.ts';

/** Where `npm run screenshots` has the pictures written (docs/screenshots); unset, none are. */
const SCREENSHOTS = process.env.SCREENSHOTS;

let app: TestApp;
let browser: Browser;
let admin: Awaited<ReturnType<typeof signedInSession>>;

/** A page to bookmark, on loopback: allowed for this app as an operator allows an intranet host. */
let pages: http.Server;
let pageUrl: string;

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startTestApp({ env: { IMPORT_ALLOWED_ADDRESSES: '127.0.0.1' } }),
    launchBrowser(),
  ]);
  admin = await signedInSession(app, { role: 'admin' });
  pages = http.createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<title>A page</title><meta property="og:description" content="Worth reading."><meta property="og:image" content="${app.url}/demo/book.svg">`,
      );
  });
  pages.listen(0, '127.0.0.1');
  await once(pages, 'listening');
  pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/page`;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  pages?.close();
});

type PostFields = { title: string; content: string; excerpt?: string; category?: string; status?: string };

const makePost = (fields: PostFields) =>
  createPost(
    app.services.db,
    app.services.queues,
    postInputSchema.parse({ excerpt: 'E', category: 'Life', ...fields }),
    admin.user.id,
  );

/** A new post and its editor, signed in as the admin: the rich editor is the default. */
async function editPost(fields: PostFields, opts: ContextOptions = {}) {
  const post = await makePost(fields);
  const context = await newContext(browser, app.url, opts);
  await addSessionCookie(context, app.url, admin.sid);
  const page = await context.newPage();
  const problems = await watchPage(page);
  await openEditor(page, post.id);
  return { post, context, page, problems };
}

/** The cursor on a new paragraph after the text, as a writer adding to a post starts. */
async function newParagraphAtEnd(page: Page) {
  await richText(page).focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
}

async function openEditor(page: Page, postId: number) {
  await page.goto(`/admin/posts/${postId}`);
  await page.waitForSelector('html[data-hydrated]');
  await richText(page).waitFor();
}

const stored = async (id: number): Promise<{ content: string; slug: string }> =>
  app.services.db('posts').where({ id }).first('content', 'slug');

/** Ctrl+S, and the admin's list of posts that a save goes back to. */
async function save(page: Page) {
  await page.keyboard.press('Control+s');
  await page.waitForURL('**/admin?tab=posts**');
}

/** The label of the field that has the focus. */
const focusedLabel = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent);

/** Whether the focus is in the rich editor's text. */
const inText = (page: Page) =>
  page.evaluate(() => document.activeElement?.classList.contains('rich-editor-text') ?? false);

const cardLabels = (page: Page) => page.locator('.editor-card-label').allTextContents();

async function slash(page: Page, query: string) {
  await page.keyboard.type(`/${query}`);
  await page.getByRole('listbox', { name: 'Insert' }).waitFor();
  await page.keyboard.press('Enter');
}

describe('the rich editor', () => {
  it('opens a post and saves it back unchanged, byte for byte', async () => {
    const body = demoPosts.find((p) => p.body.includes('```'))?.body ?? '';
    const { post, context, page, problems } = await editPost({
      title: 'Untouched',
      content: body,
      excerpt: 'Kept',
      category: 'Technology',
    });
    await expect.poll(() => page.locator('.rich-editor h2').count()).toBeGreaterThan(1);
    await richText(page).focus();
    await save(page);
    expect((await stored(post.id)).content).toBe(body);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('writes a post with the keyboard only: shortcuts, the / menu and cards; reopens it unchanged; publishes it', {
    timeout: 120_000,
  }, async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Written With Keys',
      content: 'An opening line.',
      excerpt: 'Keys only',
      category: 'Technology',
    });
    const editor = richText(page);
    await newParagraphAtEnd(page);
    await page.keyboard.type('## A heading typed as Markdown');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Some **bold** and *slanted* words.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- first');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('> A quoted line');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    // The menu's chosen option is announced from the text, where the focus stays.
    await page.keyboard.type('/');
    const chosen = () => editor.getAttribute('aria-activedescendant');
    await expect.poll(chosen).toBe('slash-heading2');
    await page.keyboard.press('ArrowDown');
    await expect.poll(chosen).toBe('slash-heading3');
    await expectAccessible(page);
    // Tab reaches the menu too (a list that scrolls), with the same keys; Escape goes back to the text.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('slash-menu');
    await page.keyboard.press('ArrowUp');
    expect(await page.getByRole('listbox', { name: 'Insert' }).getAttribute('aria-activedescendant')).toBe(
      'slash-heading2',
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => inText(page)).toBe(true);
    await page.keyboard.press('Backspace');
    await expect.poll(chosen).toBeNull();
    // The card asks in a dialog over the page: its field has the focus, a wrong answer is named there.
    await slash(page, 'youtube');
    const asked = page.getByRole('dialog', { name: 'YouTube video' });
    await expect.poll(() => focusedLabel(page)).toBe('YouTube link or video id');
    await page.keyboard.type('https://example.com/watch?v=dQw4w9WgXcQ');
    await page.keyboard.press('Enter');
    expect(await asked.getByRole('alert').textContent()).toBe(POST_MESSAGES.invalidYouTube);
    await expectAccessible(page);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('https://youtu.be/dQw4w9WgXcQ');
    await page.keyboard.press('Enter');
    await expect.poll(() => cardLabels(page)).toEqual(['YouTube video']);
    expect(await asked.count()).toBe(0);
    await expect.poll(() => inText(page)).toBe(true);
    await page.keyboard.press('Enter');
    await slash(page, 'divider');
    await page.keyboard.type('Typo');
    await page.keyboard.press('Control+z');
    await page.keyboard.type('The end, with a note ');
    await slash(page, 'footnote');
    // The note is a card at the end: its field is the next stop after the card's own buttons.
    await page.getByLabel('Markdown or HTML, kept as written').focus();
    await page.keyboard.press('End');
    await page.keyboard.type('Where it came from.');
    expect(await page.locator('.rich-editor hr').count()).toBe(1);
    await expectAccessible(page);
    await shoot(page, 'editor-rich-light-1280');
    await save(page);

    const expected = [
      'An opening line.',
      '## A heading typed as Markdown',
      'Some **bold** and *slanted* words.',
      '- first\n- second',
      '> A quoted line',
      '[youtube:dQw4w9WgXcQ]',
      '---',
      'The end, with a note [^1]',
      '[^1]: Where it came from.',
    ].join('\n\n');
    expect((await stored(post.id)).content).toBe(expected);

    await openEditor(page, post.id);
    await expect
      .poll(() => page.locator('.rich-editor h2').textContent())
      .toBe('A heading typed as Markdown');
    await editor.focus();
    await save(page);
    expect((await stored(post.id)).content).toBe(expected);

    await openEditor(page, post.id);
    await page.getByLabel('Status').selectOption('published');
    await editor.focus();
    await save(page);
    const { slug } = await stored(post.id);
    const reader = await context.newPage();
    await reader.goto(`/post/${slug}`);
    const article = reader.locator('.prose').first();
    expect(await article.locator('h2').first().textContent()).toBe('A heading typed as Markdown');
    expect(await article.locator('strong').first().textContent()).toBe('bold');
    expect(await article.locator('em').first().textContent()).toBe('slanted');
    expect(await article.locator('ul li').allTextContents()).toEqual(['first', 'second']);
    expect(await article.locator('blockquote').textContent()).toContain('A quoted line');
    expect(await article.locator('iframe').getAttribute('src')).toContain('/embed/dQw4w9WgXcQ');
    expect(await article.locator('hr').count()).toBe(1);
    expect(await article.locator('.footnotes li').textContent()).toContain('Where it came from.');
    await shoot(reader, 'editor-rich-public-light-1280');
    expect(problems.filter((p) => !p.includes('youtube'))).toEqual([]);
    await context.close();
  });

  it('shows the editor and the published post in dark mode too, every text colour legible', async () => {
    const colours = TEXT_COLOURS.filter((c) => c.value !== 'inherit')
      .map((c) => `<span style="color: ${c.value}">${c.name.toLowerCase()}</span>`)
      .join(', ');
    const { post, context, page } = await editPost(
      {
        title: 'Dark Writing',
        content: `## In the dark\n\nText in ${colours}.\n\n---\n\n[product:1]`,
        excerpt: 'Dark',
        category: 'Technology',
        status: 'published',
      },
      { colorScheme: 'dark' },
    );
    await expect
      .poll(() => page.locator('.rich-editor span[style]').allTextContents())
      .toEqual(['red', 'blue', 'green', 'purple', 'orange', 'gray']);
    await expect.poll(() => cardLabels(page)).toEqual(['Product card']);
    // A card's controls are the next stops after the text, for the keyboard.
    await richText(page).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Remove product card');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('2');
    expect(await page.locator('#content').inputValue()).toMatch(/\[product:2\]$/);
    await expectAccessible(page);
    await shoot(page, 'editor-rich-dark-1280');
    // The live preview sets the text with the public page's stylesheet.
    const preview = page.getByRole('button', { name: 'Preview', exact: true });
    await preview.focus();
    await page.keyboard.press('Enter');
    const previewed = page.locator('#post-preview .prose p').first();
    await previewed.waitFor();
    const textStyle = (el: Element) => {
      const style = getComputedStyle(el);
      return [style.fontFamily, style.fontSize, style.lineHeight].join(' / ');
    };
    const inPreview = await previewed.evaluate(textStyle);
    expect(inPreview).toContain('Source Serif 4');
    await page.goto(`/post/${(await stored(post.id)).slug}`);
    expect(await page.locator('.prose p').first().evaluate(textStyle)).toBe(inPreview);
    expect(await page.locator('.prose span[style]').count()).toBe(6);
    await expectAccessible(page);
    await shoot(page, 'editor-rich-public-dark-1280');
    await context.close();
  });

  it('closes the settings panel, leaving the text, and still saves what the panel holds', async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Panel',
      content: 'Body',
      excerpt: 'Kept excerpt',
      category: 'Life',
    });
    const toggle = page.getByRole('button', { name: 'Settings', exact: true });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByLabel('Excerpt').isVisible()).toBe(false);
    const editor = richText(page);
    expect(await editor.isVisible()).toBe(true);
    await editor.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' more');
    await save(page);
    const saved = await app.services
      .db('posts')
      .where({ id: post.id })
      .first('content', 'excerpt', 'category');
    expect(saved).toEqual({ content: 'Body more', excerpt: 'Kept excerpt', category: 'Life' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('inserts a callout with the keyboard, stored as the quote the importer writes, shown on the page', async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Callout',
      content: 'Intro',
      excerpt: 'C',
      category: 'Life',
      status: 'published',
    });
    await newParagraphAtEnd(page);
    await slash(page, 'callout');
    // A new card's text takes the focus; its emoji is the field before it.
    await expect.poll(() => focusedLabel(page)).toBe('Callout text');
    await page.keyboard.type('Mind the gap');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedLabel(page)).toBe('Emoji');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('⚠️');
    await expectAccessible(page);
    await save(page);
    const { content, slug } = await stored(post.id);
    expect(content).toBe('Intro\n\n> ⚠️ Mind the gap');

    await openEditor(page, post.id);
    await expect.poll(() => cardLabels(page)).toEqual(['Callout']);
    expect(await page.getByLabel('Callout text').inputValue()).toBe('Mind the gap');
    await page.goto(`/post/${slug}`);
    expect(await page.locator('.prose blockquote').textContent()).toContain('⚠️ Mind the gap');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("ends a members' post's public preview with the paywall card, by keyboard", async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Behind The Wall',
      content: 'For everyone.\n\nFor members.',
      excerpt: 'P',
      category: 'Life',
      status: 'published',
    });
    await richText(page).focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await slash(page, 'paywall');
    await expect.poll(() => cardLabels(page)).toEqual(['Paywall']);
    await expectAccessible(page);
    await save(page);
    expect((await stored(post.id)).content).toBe('For everyone.\n\n[paywall]\n\nFor members.');

    await openEditor(page, post.id);
    await expect.poll(() => cardLabels(page)).toEqual(['Paywall']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('inserts a podcast episode (asked in a dialog), a product card (its price and stock shown) and an HTML card with the keyboard; reopens them unchanged', async () => {
    const product = await createProductRow(app.services.db, {
      name: 'Pocket Notebook',
      price: 1250,
      stock: 7,
    });
    const { post, context, page, problems } = await editPost({
      title: 'Cards Of Every Kind',
      content: 'Intro',
      excerpt: 'K',
      category: 'Life',
      status: 'published',
    });
    await newParagraphAtEnd(page);
    await slash(page, 'podcast');
    const asked = page.getByRole('dialog', { name: 'Podcast episode' });
    await expect.poll(() => focusedLabel(page)).toBe('Podcast audio URL');
    await page.keyboard.type('ftp://example.com/episode-1.mp3');
    await page.keyboard.press('Enter');
    expect(await asked.getByRole('alert').textContent()).toBe(POST_MESSAGES.invalidPodcast);
    // Escape leaves the dialog and the text as they were: the cursor back where the / was.
    await page.keyboard.press('Escape');
    expect(await asked.count()).toBe(0);
    await expect.poll(() => inText(page)).toBe(true);
    expect(await cardLabels(page)).toEqual([]);
    await slash(page, 'podcast');
    await expect.poll(() => focusedLabel(page)).toBe('Podcast audio URL');
    await page.keyboard.type('https://example.com/episode-1.mp3');
    await page.keyboard.press('Enter');
    await expect.poll(() => cardLabels(page)).toEqual(['Podcast episode']);
    await expect.poll(() => inText(page)).toBe(true);
    await page.keyboard.press('Enter');
    await slash(page, 'pocket');
    await expect
      .poll(() => page.locator('.editor-card-note').allTextContents())
      .toEqual(['Pocket Notebook · $12.50 · Stock: 7']);
    await page.keyboard.press('Enter');
    await slash(page, 'html');
    await page.getByLabel('Markdown or HTML, kept as written').waitFor();
    await page.getByLabel('Markdown or HTML, kept as written').focus();
    await page.keyboard.type('<aside>Aside</aside>');
    await expect.poll(() => cardLabels(page)).toEqual(['Podcast episode', 'Product card', 'Markdown card']);
    await expectAccessible(page);
    await save(page);
    const written = `Intro\n\n[podcast:https://example.com/episode-1.mp3]\n\n[product:${product.id}]\n\n<aside>Aside</aside>`;
    expect((await stored(post.id)).content).toBe(written);

    await openEditor(page, post.id);
    await expect.poll(() => cardLabels(page)).toEqual(['Podcast episode', 'Product card', 'Markdown card']);
    await richText(page).focus();
    await save(page);
    expect((await stored(post.id)).content).toBe(written);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('bookmarks a page with the keyboard: read by the server, edited, shown on the page, removed', async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Bookmark',
      content: 'Intro',
      excerpt: 'B',
      category: 'Life',
      status: 'published',
    });
    await newParagraphAtEnd(page);
    await slash(page, 'bookmark');
    await expect.poll(() => focusedLabel(page)).toBe('Page address');
    await page.keyboard.type(pageUrl);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Read: A page' }).waitFor();
    expect(await page.getByLabel('Bookmark description').inputValue()).toBe('Worth reading.');
    await expect
      .poll(() => page.locator('.editor-bookmark-image').getAttribute('src'))
      .toBe(`${app.url}/demo/book.svg`);
    // Past the Read button to the title, which the writer may reword.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedLabel(page)).toBe('Bookmark title');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('A page worth reading');
    await expectAccessible(page);
    await save(page);
    const { content, slug } = await stored(post.id);
    expect(content).toBe(
      `Intro\n\n> **[A page worth reading](${pageUrl})**  \n> Worth reading.  \n> ![](${app.url}/demo/book.svg)`,
    );

    await page.goto(`/post/${slug}`);
    const quote = page.locator('.prose blockquote');
    expect(await quote.getByRole('link', { name: 'A page worth reading' }).getAttribute('href')).toBe(
      pageUrl,
    );
    expect(await quote.locator('img').getAttribute('src')).toBe(`${app.url}/demo/book.svg`);

    await openEditor(page, post.id);
    await expect.poll(() => cardLabels(page)).toEqual(['Bookmark']);
    await page.getByLabel('Page address').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.editor-card').count()).toBe(0);
    await richText(page).focus();
    await save(page);
    expect((await stored(post.id)).content).toBe('Intro');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("sets an image's width with the keyboard, shown in the editor as on the page: full width, wide, and at 375 px in both themes", async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Widths',
      content: 'Intro\n\n![A city](/demo/city.svg "The city")',
      excerpt: 'W',
      category: 'Life',
      status: 'published',
    });
    const box = async (selector: string, at: Page) =>
      at.locator(selector).evaluate((el) => {
        const rect = el.getBoundingClientRect();
        return { left: Math.round(rect.left), width: Math.round(rect.width) };
      });
    // The editor's area inside its border, and the text's column in it.
    const area = await page.locator('.rich-editor').evaluate((el) => ({
      left: Math.round(el.getBoundingClientRect().left + el.clientLeft),
      width: el.clientWidth,
    }));
    const text = await box('.rich-editor-text p', page);
    expect(text.width).toBeLessThan(area.width - 100);
    await page.getByLabel('Caption').focus();
    // Tab reaches the width's chosen radio; the arrow keys move the choice.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('normal');
    expect((await box('.rich-editor img', page)).width).toBeLessThanOrEqual(text.width);
    // The editor shows the width as the page will: wide leaves the text, centred; full fills the editor.
    await page.keyboard.press('ArrowRight');
    await page.locator('.rich-editor .figure-wide').waitFor();
    const wideInEditor = await box('.rich-editor .figure-wide', page);
    expect((await box('.rich-editor .figure-wide img', page)).width).toBeGreaterThan(text.width);
    expect(
      Math.abs(wideInEditor.left - area.left - (area.width - wideInEditor.width) / 2),
    ).toBeLessThanOrEqual(1);
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: 'Full width' }).isChecked()).toBe(true);
    await page.locator('.rich-editor .figure-full').waitFor();
    expect(await box('.rich-editor .figure-full', page)).toEqual(area);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(1280);
    await expectAccessible(page);
    await shoot(page, 'editor-rich-full-image-1280');
    await save(page);
    const { content, slug } = await stored(post.id);
    expect(content).toBe('Intro\n\n![A city](/demo/city.svg#full "The city")');

    await page.goto(`/post/${slug}`);
    expect(await page.locator('.prose figure img').getAttribute('src')).toBe('/demo/city.svg');
    expect(await box('.prose .figure-full', page)).toEqual({ left: 0, width: 1280 });
    const column = await box('.prose', page);

    const second = await makePost({
      title: 'Both widths',
      content: 'Intro\n\n![Wide](/demo/city.svg#wide)\n\n![Full](/demo/book.svg#full)\n\nEnd',
      status: 'published',
    });
    await page.goto(`/post/${second.slug}`);
    // Wider than the column, centred on the screen.
    const wide = await box('.prose .figure-wide', page);
    expect(wide.width).toBeGreaterThan(column.width);
    expect(wide.left * 2 + wide.width).toBe(1280);
    for (const colorScheme of ['light', 'dark'] as const) {
      const phone = await newContext(browser, app.url, { width: 375, colorScheme });
      const small = await phone.newPage();
      const phoneProblems = await watchPage(small);
      await small.goto(`/post/${second.slug}`);
      expect(await box('.prose .figure-full', small)).toEqual({ left: 0, width: 375 });
      expect(await box('.prose .figure-wide', small)).toEqual({ left: 16, width: 343 });
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
      expect(phoneProblems).toEqual([]);
      await phone.close();
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('makes a gallery of uploaded images with the keyboard, side by side on the page', async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Gallery',
      content: 'Intro',
      excerpt: 'G',
      category: 'Life',
      status: 'published',
    });
    await newParagraphAtEnd(page);
    // A new gallery asks for its images at once.
    const chooser = page.waitForEvent('filechooser');
    await slash(page, 'gallery');
    const png = (background: string) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background } })
        .png()
        .toBuffer();
    await (await chooser).setFiles([
      { name: 'left.png', mimeType: 'image/png', buffer: await png('#2563eb') },
      { name: 'right.png', mimeType: 'image/png', buffer: await png('#16a34a') },
    ]);
    await expect.poll(() => page.locator('.editor-gallery img').count()).toBe(2);
    await page.getByLabel('Alt text of image 2').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('The right one');
    await expectAccessible(page);
    await save(page);
    const { content, slug } = await stored(post.id);
    expect(content).toMatch(/^Intro\n\n!\[left\]\(\/uploads\/\S+\) !\[The right one\]\(\/uploads\/\S+\)$/);

    await openEditor(page, post.id);
    await expect.poll(() => cardLabels(page)).toEqual(['Gallery']);
    await page.goto(`/post/${slug}`);
    const images = page.locator('.prose p img');
    expect(await images.count()).toBe(2);
    const [left, right] = [await images.nth(0).boundingBox(), await images.nth(1).boundingBox()];
    expect(right?.y).toBe(left?.y);
    expect(right?.x).toBeGreaterThan((left?.x ?? 0) + (left?.width ?? 0));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('links the selected words with the link editor, by keyboard, and removes the link', async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Linked',
      content: 'Read the manual today',
      excerpt: 'L',
      category: 'Life',
    });
    const editor = richText(page);
    const markdown = () => page.locator('#content').inputValue();
    const focusedId = () =>
      page.evaluate(() => document.activeElement?.id || document.activeElement?.className);
    // The toolbar follows the cursor (useEditorState, through the use-sync-external-store stand-ins).
    const linkPressed = () =>
      page
        .getByRole('toolbar', { name: 'Formatting' })
        .getByRole('button', { name: 'Link' })
        .getAttribute('aria-pressed');
    await editor.focus();
    await page.keyboard.press('Control+End');
    for (let i = 0; i < ' today'.length; i++) await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 'manual'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Link' });
    await expect.poll(focusedId).toBe('link-url');
    await page.keyboard.type('example.com');
    await page.keyboard.press('Enter');
    expect(await dialog.getByRole('alert').textContent()).toBe(INVALID_LINK);
    await expectAccessible(page);
    await page.keyboard.press('Control+a');
    await page.keyboard.type('https://example.com/manual');
    await page.keyboard.press('Enter');
    expect(await dialog.count()).toBe(0);
    await expect.poll(focusedId).toContain('rich-editor-text');
    await expect.poll(markdown).toBe('Read the [manual](https://example.com/manual) today');
    await expect.poll(linkPressed).toBe('true');
    await page.keyboard.press('End');
    await expect.poll(linkPressed).toBe('false');
    for (let i = 0; i < ' today'.length + 1; i++) await page.keyboard.press('ArrowLeft');
    await expect.poll(linkPressed).toBe('true');

    // In the link, the editor shows its address; Escape leaves it as it was.
    await page.keyboard.press('Control+k');
    await expect.poll(focusedId).toBe('link-url');
    expect(await page.getByLabel('Link URL').inputValue()).toBe('https://example.com/manual');
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    expect(await markdown()).toBe('Read the [manual](https://example.com/manual) today');
    await expect.poll(focusedId).toContain('rich-editor-text');
    await page.keyboard.press('Control+k');
    await expect.poll(focusedId).toBe('link-url');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Remove link');
    await page.keyboard.press('Enter');
    await expect.poll(markdown).toBe('Read the manual today');
    await expect.poll(linkPressed).toBe('false');
    await expect.poll(focusedId).toContain('rich-editor-text');
    await page.keyboard.press('Control+k');
    await expect.poll(focusedId).toBe('link-url');
    await page.keyboard.type('/about');
    await page.keyboard.press('Enter');
    await expect.poll(focusedId).toContain('rich-editor-text');
    await save(page);
    expect((await stored(post.id)).content).toBe('Read the [manual](/about) today');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('colours code in the editor as readers will see it, as it is typed', async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Coloured Code',
      content: 'Intro\n\n```ts\nconst answer = 42;\n```',
      excerpt: 'C',
      category: 'Technology',
      status: 'published',
    });
    const keyword = page.locator('.rich-editor pre .hljs-keyword');
    await expect.poll(() => keyword.allTextContents()).toEqual(['const']);
    const colour = (el: Element) => getComputedStyle(el).color;
    const inEditor = await keyword.evaluate(colour);
    await page.locator('.rich-editor pre').click();
    await page.keyboard.press('End');
    await page.keyboard.type(' // the answer');
    await expect
      .poll(() => page.locator('.rich-editor pre .hljs-comment').textContent())
      .toBe('// the answer');
    await save(page);
    expect((await stored(post.id)).content).toBe('Intro\n\n```ts\nconst answer = 42; // the answer\n```');
    await page.goto(`/post/${(await stored(post.id)).slug}`);
    const onPage = page.locator('.prose pre .hljs-keyword');
    expect(await onPage.textContent()).toBe('const');
    expect(await onPage.evaluate(colour)).toBe(inEditor);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('writes a table, Tab moving from cell to cell', async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Table',
      content: 'Intro',
      excerpt: 'T',
      category: 'Life',
    });
    await newParagraphAtEnd(page);
    await slash(page, 'table');
    for (const [index, cell] of ['Item', 'Price', 'Desk', '30', 'Chair', '90'].entries()) {
      if (index) await page.keyboard.press('Tab');
      await page.keyboard.type(cell);
    }
    // Over to the Markdown textarea: the same text, as it will be stored.
    const mode = page.getByRole('button', { name: 'Markdown', exact: true });
    expect(await mode.getAttribute('aria-pressed')).toBe('false');
    await mode.focus();
    await page.keyboard.press('Enter');
    expect(await mode.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByLabel('Content', { exact: true }).inputValue()).toBe(
      'Intro\n\n| Item | Price |\n| --- | --- |\n| Desk | 30 |\n| Chair | 90 |',
    );
    await save(page);
    expect((await stored(post.id)).content).toBe(
      'Intro\n\n| Item | Price |\n| --- | --- |\n| Desk | 30 |\n| Chair | 90 |',
    );
    // The choice is remembered in this browser: the textarea opens next time, until switched back.
    await openEditor(page, post.id);
    expect(await mode.getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('.rich-editor').count()).toBe(0);
    await mode.click();
    await page.locator('.rich-editor table').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('cleans what is pasted from a word processor to what the editor allows', async () => {
    const { post, context, page, problems } = await editPost({
      title: 'Pasted',
      content: 'Intro',
      excerpt: 'P',
      category: 'Life',
    });
    await newParagraphAtEnd(page);
    // As Google Docs puts it on the clipboard: styled spans, a wrapper, its own colours and a script.
    const html =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1">' +
      '<p dir="ltr" style="line-height:1.38"><span style="font-size:11pt;font-family:Arial;color:#000000;font-weight:700">Bold words</span>' +
      '<span style="font-size:11pt;color:#000000"> and plain</span></p>' +
      '<h2><span style="color:#ff0000">A heading</span></h2><script>window.pasted = true</script>' +
      '<p><a href="javascript:alert(1)">bad link</a> and <a href="https://example.com/" style="color:#1155cc">good link</a></p></b>';
    await page.locator('.rich-editor-text').evaluate((el, data) => {
      const clipboardData = new DataTransfer();
      clipboardData.setData('text/html', data);
      clipboardData.setData('text/plain', 'Bold words and plain');
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
    }, html);
    await save(page);
    expect((await stored(post.id)).content).toBe(
      'Intro\n\n**Bold words** and plain\n\n## A heading\n\nbad link and [good link](https://example.com/)',
    );
    expect(await page.evaluate(() => 'pasted' in window)).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('inserts an uploaded image on a phone', async () => {
    const { post, context, page, problems } = await editPost(
      {
        title: 'Phone',
        content: 'Hello',
        excerpt: 'P',
        category: 'Technology',
      },
      { width: 375 },
    );
    await newParagraphAtEnd(page);
    const chooser = page.waitForEvent('filechooser');
    await slash(page, 'image');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    await (await chooser).setFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => page.locator('.rich-editor img').count()).toBe(1);
    await page.getByLabel('Caption').fill('A dot "small"');
    await save(page);
    expect((await stored(post.id)).content).toMatch(/^Hello\n\n!\[dot\]\(\/uploads\/\S+ "A dot small"\)$/);
    expect(problems).toEqual([]);
    await context.close();
  });
});

/**
 * The viewport with the text in it (a full page would draw the sticky header over the form), into
 * the folder SCREENSHOTS names (`npm run screenshots`): a test run leaves the tracked pictures alone.
 */
async function shoot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  const dir = path.resolve(SCREENSHOTS);
  mkdirSync(dir, { recursive: true });
  await page
    .locator('.rich-editor, .prose')
    .first()
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.evaluate(() => window.scrollBy(0, -140));
  await page.screenshot({ path: path.join(dir, `${name}.png`), animations: 'disabled' });
}
