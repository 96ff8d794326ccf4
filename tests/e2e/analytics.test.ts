import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/blog/markdown.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, watchPage } from '../support/browser.ts';
import { createProductRow } from '../support/shop.ts';
import { until } from '../support/until.ts';

// Headless Chromium names itself HeadlessChrome, which isbot rightly takes for a robot.
const READER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([
    startTestApp({ withWorker: true, env: { CHECKOUT_RATE_LIMIT: '1000' } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('analytics', () => {
  it('credits a sale to the post its buyer read, shows the funnel, and the chart without JavaScript', {
    timeout: 60_000,
  }, async () => {
    const { db } = app.services;
    const product = await createProductRow(db, { name: 'Fountain Pen', price: 2500, stock: null });
    const content = `Mine is a [Fountain Pen](/product/${product.id}).`;
    const [post] = await db('posts')
      .insert({
        title: 'Why I write with a fountain pen',
        slug: 'fountain-pen',
        content,
        content_html: renderMarkdown(content),
        excerpt: 'Ink.',
        category: 'Life',
        status: 'published',
        published_at: new Date(),
      })
      .returning(['id', 'title']);

    // A new reader, with no session: reads the post, follows its link, buys.
    const reader = await browser.newContext({ baseURL: app.url, userAgent: READER_AGENT });
    const page = await reader.newPage();
    const problems = await watchPage(page);
    await page.goto('/post/fountain-pen');
    await page.getByRole('heading', { name: post.title, level: 1 }).waitFor();
    expect((await reader.cookies()).map((c) => c.name)).not.toContain('sid');
    await page.locator('article').getByRole('link', { name: 'Fountain Pen' }).click();
    await page.waitForSelector('html[data-hydrated]');
    await page.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await page.getByText('Item successfully added to your cart', { exact: true }).waitFor();
    await page.goto('/checkout');
    const fields = {
      'Full name': 'Grace Hopper',
      Email: 'grace@example.com',
      Address: '1 Compiler Way',
      City: 'Arlington',
      'ZIP code': '22201',
    };
    for (const [label, value] of Object.entries(fields))
      await page.locator('main').getByLabel(label, { exact: true }).fill(value);
    await page.locator('main').getByLabel('Country', { exact: true }).selectOption('US');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    expect(problems).toEqual([]);
    await reader.close();

    const order = await db('orders').orderBy('id', 'desc').first('id');
    const admin = await signedInSession(app, { role: 'admin' });
    const paid = await fetch(`${app.url}/api/admin/orders/${order.id}?action=mark-paid`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(paid.status).toBe(200);
    await app.services.pageViews.flush();
    await until(
      async () => (await db('analytics_hourly').where({ product_id: product.id }).first())?.views === 1,
      'the product view rolled up',
      20_000,
    );

    const noScript = await browser.newContext({ baseURL: app.url, javaScriptEnabled: false });
    await addSessionCookie(noScript, app.url, admin.sid);
    const adminPage = await noScript.newPage();
    await adminPage.goto('/admin?tab=analytics&range=today');
    const postRow = adminPage.locator('section[aria-labelledby="analytics-posts"] tbody tr', {
      hasText: post.title,
    });
    expect(await postRow.locator('td').allTextContents()).toEqual(['1', '1', '$25.00']);
    const productRow = adminPage.locator('section[aria-labelledby="analytics-products"] tbody tr', {
      hasText: 'Fountain Pen',
    });
    expect(await productRow.locator('td').allTextContents()).toEqual(['1', '1', '1', '$25.00']);
    const chart = adminPage.getByRole('img', { name: /Views and visitors per day/ });
    expect(await chart.isVisible()).toBe(true);
    expect(await chart.locator('polyline').count()).toBe(2);
    const revenue = adminPage.getByRole('img', { name: /Revenue per day/ });
    expect(await revenue.locator('rect').count()).toBe(1);
    expect(
      await adminPage.locator('section[aria-labelledby="analytics-revenue"] tbody tr td').allTextContents(),
    ).toEqual(['1', '$25.00']);
    const csv = await fetch(
      `${app.url}${await adminPage.locator('section[aria-labelledby="analytics-products"] a', { hasText: 'Export CSV' }).getAttribute('href')}`,
      { headers: admin.headers },
    );
    expect(await csv.text()).toBe(
      `id,name,views,addToCarts,orders,revenue\r\n${product.id},Fountain Pen,1,1,1,2500\r\n`,
    );
    await adminPage.goto('/admin');
    expect(
      await adminPage.getByRole('img', { name: 'Views and visitors per day, last 30 days' }).isVisible(),
    ).toBe(true);
    expect(
      await adminPage.locator('section[aria-labelledby="popular-posts"] li').first().textContent(),
    ).toContain(post.title);
    // The post's own admin page: its chart, with its day's view in the table.
    await adminPage.goto(`/admin/posts/${post.id}`);
    const own = adminPage.getByRole('img', { name: 'Views and visitors of this page per day, last 30 days' });
    expect(await own.isVisible()).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      await adminPage
        .locator('section[aria-labelledby="page-views"] tbody tr', { hasText: today })
        .locator('td')
        .allTextContents(),
    ).toEqual(['1', '1']);
    await noScript.close();

    const withScript = await browser.newContext({ baseURL: app.url });
    await addSessionCookie(withScript, app.url, admin.sid);
    const hydrated = await withScript.newPage();
    await hydrated.goto('/admin?tab=analytics&range=30d');
    await hydrated.waitForSelector('html[data-hydrated]');
    await expectAccessible(hydrated);
    await withScript.close();
  });
});
