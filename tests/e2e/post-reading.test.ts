import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOAST_DURATION_MS } from '../../src/app/components/Toaster.tsx';
import { renderMarkdown } from '../../src/blog/markdown.ts';
import { BLOG_MESSAGES } from '../../src/blog/messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { seedDemo } from '../support/blog.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  await seedDemo(app);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** The demo post with highlighted code, a captioned figure and the length for a progress bar. */
const POST = '/post/build-a-markdown-blog-engine-from-scratch';

/** WCAG's contrast ratio of two computed `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** How far the reading-progress bar is filled: its transform's horizontal scale. */
const progress = (page: Page) =>
  page
    .locator('.reading-progress')
    .evaluate((bar) => new DOMMatrixReadOnly(getComputedStyle(bar).transform).a);

describe('reading a post', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      it(`shows highlighted code and a figure that opens full size (${colorScheme}, ${width} px)`, async () => {
        const context = await newContext(browser, app.url, { colorScheme, width });
        const page = await context.newPage();
        const problems = await watchPage(page);
        await page.goto(POST);

        // Every highlighted token keeps AA contrast on the block's background.
        const colours = await page.locator('.prose pre').evaluate((pre) => ({
          background: getComputedStyle(pre).backgroundColor,
          tokens: [...pre.querySelectorAll('[class^="hljs-"]')].map((span) => getComputedStyle(span).color),
        }));
        expect(new Set(colours.tokens).size).toBeGreaterThanOrEqual(4);
        for (const colour of colours.tokens) {
          expect(contrast(colour, colours.background), colour).toBeGreaterThanOrEqual(4.5);
        }

        // The figure keeps its place before its image arrives, and links to the original.
        const figure = page.locator('.prose figure').first();
        const box = await figure.locator('img').evaluate((img) => img.getBoundingClientRect());
        expect(Math.abs(box.height - (box.width * 630) / 1200)).toBeLessThan(2);
        expect(await figure.locator('a').getAttribute('href')).toBe('/demo/photos/dandelion.webp');
        expect(await figure.locator('figcaption').textContent()).toContain('Clemens Engelhardt (CC0)');
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth > window.innerWidth + 1,
        );
        expect(overflow).toBe(false);
        await expectAccessible(page);

        await figure.locator('a').click();
        await page.waitForURL('**/demo/photos/dandelion.webp');
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  }

  it('draws a Markdown table with ruled, padded cells', async () => {
    const markdown = 'Sizes:\n\n| Size | Pages |\n| --- | --- |\n| A5 | 120 |';
    await app.services.db('posts').insert({
      title: 'A post with a table',
      slug: 'a-post-with-a-table',
      content: markdown,
      content_html: renderMarkdown(markdown),
      excerpt: 'Sizes',
      category: 'Technology',
      status: 'published',
      published_at: new Date(),
    });
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await page.goto('/post/a-post-with-a-table');
    for (const cell of ['th', 'td']) {
      const style = await page
        .locator(`.prose ${cell}`)
        .first()
        .evaluate((el) => {
          const s = getComputedStyle(el);
          return { border: s.borderTopWidth, style: s.borderTopStyle, padding: parseFloat(s.paddingLeft) };
        });
      expect(style).toMatchObject({ border: '1px', style: 'solid' });
      expect(style.padding).toBeGreaterThanOrEqual(8);
    }
    await context.close();
  });

  it("keeps the copy button's toast its full time, even when shown just before the page's own toasts go", async () => {
    const context = await newContext(browser, app.url);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    const page = await context.newPage();
    // The page's timers under the test's clock: the click lands 100 ms before the sweep of the
    // toasts the server sent (a slow reader's click once lost its toast to it at once).
    await page.clock.install({ time: new Date('2026-11-30T12:00:00Z') });
    await page.clock.pauseAt(new Date('2026-11-30T12:00:01Z'));
    await page.goto(POST);
    await page.clock.runFor(TOAST_DURATION_MS - 100);
    await page.getByRole('button', { name: BLOG_MESSAGES.copyLink }).click();
    const toast = page.locator('.toaster .toast', { hasText: BLOG_MESSAGES.linkCopied });
    await toast.waitFor();
    await page.clock.runFor(TOAST_DURATION_MS - 500);
    expect(await toast.isVisible()).toBe(true);
    await page.clock.runFor(600);
    expect(await toast.count()).toBe(0);
    await context.close();
  });

  it('fills the reading-progress bar as the body is read, and shows none when motion is reduced', async () => {
    const context = await newContext(browser, app.url);
    const page = await context.newPage();
    await page.goto(POST);
    expect(await progress(page)).toBe(0);
    const scrollTo = (fraction: number) =>
      page.locator('.prose').evaluate((prose, f) => {
        const top = prose.getBoundingClientRect().top + window.scrollY;
        window.scrollTo(0, top + (prose.getBoundingClientRect().height - window.innerHeight) * f);
      }, fraction);
    await scrollTo(0.5);
    await expect.poll(() => progress(page)).toBeCloseTo(0.5, 1);
    await scrollTo(1);
    await expect.poll(() => progress(page)).toBeCloseTo(1, 2);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await page.locator('.reading-progress').isVisible()).toBe(false);
    await context.close();
  });
});
