import { createHash, randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { createProductRow } from '../support/shop.ts';

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('downloadable files in the product editor', () => {
  it('attaches a named file, shows it, and removes it; a guest then checks out the e-book without an address', {
    timeout: 90_000,
  }, async () => {
    const admin = await signedInSession(app, { role: 'admin' });
    const product = await createProductRow(app.services.db, {
      name: 'Field Notes (e-book)',
      category: 'Books',
    });
    const context = await newContext(browser, app.url);
    await addSessionCookie(context, app.url, admin.sid);
    const page = await context.newPage();
    const problems = await watchPage(page);

    await page.goto(`/admin/products/${product.id}`);
    await page.waitForSelector('html[data-hydrated]');
    await page.getByRole('heading', { name: 'Downloadable files' }).waitFor();
    await page.getByText('No files yet.').waitFor();
    const bytes = randomBytes(2 * 1024 * 1024);
    await page.getByLabel('File', { exact: true }).setInputFiles({
      name: 'field-notes.epub',
      mimeType: 'application/epub+zip',
      buffer: bytes,
    });
    await page.getByLabel('Name shown to buyers').fill('Field Notes (EPUB)');
    await page.getByRole('button', { name: 'Attach file' }).click();
    await page.getByRole('status').filter({ hasText: 'File attached' }).waitFor();
    const listed = page.getByRole('listitem').filter({ hasText: 'Field Notes (EPUB)' });
    await listed.waitFor();
    expect(await listed.textContent()).toContain('field-notes.epub, 2.0 MB');
    await expectAccessible(page);

    const [row] = await app.services.db('product_files').where({ product_id: product.id });
    expect(row).toMatchObject({ name: 'Field Notes (EPUB)', file_name: 'field-notes.epub' });
    const stored = await app.services.privateFiles.get(row.storage_name);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(bytes));

    // The list survives a reload (it is the server's).
    await page.reload();
    await page.waitForSelector('html[data-hydrated]');
    await listed.waitFor();

    // A guest buys it: checkout asks for no address.
    const guest = await newContext(browser, app.url);
    const shopper = await guest.newPage();
    await shopper.goto(`/product/${product.id}`);
    await shopper.waitForSelector('html[data-hydrated]');
    await shopper.getByRole('button', { name: 'Add to Cart' }).click();
    await shopper.getByText('Item successfully added to your cart', { exact: true }).waitFor();
    await shopper.goto('/checkout');
    await shopper.waitForSelector('html[data-hydrated]');
    await shopper.getByText('no shipping address is needed').waitFor();
    expect(await shopper.getByLabel('Address', { exact: true }).count()).toBe(0);
    await shopper.getByLabel('Full name', { exact: true }).fill('Grace Hopper');
    await shopper.getByLabel('Email', { exact: true }).fill('grace@example.com');
    await shopper.getByRole('button', { name: 'Place Order' }).click();
    await shopper.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    await guest.close();

    // Removing the file leaves the product without files.
    await page.getByRole('button', { name: 'Remove Field Notes (EPUB)' }).click();
    await page.getByText('No files yet.').waitFor();
    expect(await app.services.db('product_files').where({ product_id: product.id })).toEqual([]);
    expect(await app.services.privateFiles.get(row.storage_name)).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });
});
