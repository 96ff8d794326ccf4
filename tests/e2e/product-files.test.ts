import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, newContext, setUpBrowserApp, watchPage } from '../support/browser.ts';
import { createProductRow } from '../support/shop.ts';

const stack = setUpBrowserApp();

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('downloadable files in the product editor', () => {
  it('attaches a named file, shows it, and removes it; a guest then checks out the e-book without an address', {
    timeout: 90_000,
  }, async () => {
    const admin = await signedInSession(stack.app, { role: 'admin' });
    const product = await createProductRow(stack.app.services.db, {
      name: 'Field Notes (e-book)',
      category: 'Books',
    });
    const context = await newContext(stack.browser, stack.app.url);
    await addSessionCookie(context, stack.app.url, admin.sid);
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

    const [row] = await stack.app.services.db('product_files').where({ product_id: product.id });
    expect(row).toMatchObject({ name: 'Field Notes (EPUB)', file_name: 'field-notes.epub' });
    const stored = await stack.app.services.privateFiles.get(row.storage_name);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!.body) chunks.push(chunk as Buffer);
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(bytes));

    // The list survives a reload (it is the server's).
    await page.reload();
    await page.waitForSelector('html[data-hydrated]');
    await listed.waitFor();

    // A guest buys it: checkout asks for no address.
    const guest = await newContext(stack.browser, stack.app.url);
    const shopper = await guest.newPage();
    await shopper.goto(`/product/${product.id}`);
    await shopper.waitForSelector('html[data-hydrated]');
    await shopper.getByRole('button', { name: 'Add to Cart', exact: true }).click();
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
    expect(await stack.app.services.db('product_files').where({ product_id: product.id })).toEqual([]);
    expect(await stack.app.services.privateFiles.get(row.storage_name)).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the download journey', () => {
  it('a guest buys a 20 MB e-book, the admin marks it paid, the guest downloads it byte for byte, resumes, and the 6th download is refused', {
    timeout: 120_000,
  }, async () => {
    const admin = await signedInSession(stack.app, { role: 'admin' });
    const product = await createProductRow(stack.app.services.db, {
      name: 'Quiet Rooms (e-book)',
      category: 'Books',
      price: 1200,
      stock: null,
    });
    const adminContext = await newContext(stack.browser, stack.app.url);
    await addSessionCookie(adminContext, stack.app.url, admin.sid);
    const page = await adminContext.newPage();
    const problems = await watchPage(page);
    await page.goto(`/admin/products/${product.id}`);
    await page.waitForSelector('html[data-hydrated]');
    const bytes = randomBytes(20 * 1024 * 1024);
    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'quiet-rooms.pdf', mimeType: 'application/pdf', buffer: bytes });
    await page.getByRole('button', { name: 'Attach file' }).click();
    await page.getByRole('status').filter({ hasText: 'File attached' }).waitFor();

    // The guest checks out with name and email only (manual payment: unpaid until the admin says so).
    const guest = await newContext(stack.browser, stack.app.url);
    const shopper = await guest.newPage();
    const shopperProblems = await watchPage(shopper);
    await shopper.goto(`/product/${product.id}`);
    await shopper.waitForSelector('html[data-hydrated]');
    // A superseded navigation's aborted requests are expected, not page errors: the app lets them
    // go (shopperProblems is checked at the end), as it does when a click follows an action fast.
    await shopper.evaluate(() => {
      const superseded = new AbortController();
      superseded.abort();
      void Promise.reject(superseded.signal.reason);
    });
    await shopper.getByRole('button', { name: 'Add to Cart', exact: true }).click();
    await shopper.getByText('Item successfully added to your cart', { exact: true }).waitFor();
    await shopper.goto('/checkout');
    await shopper.waitForSelector('html[data-hydrated]');
    await shopper.getByLabel('Full name', { exact: true }).fill('Ada Lovelace');
    await shopper.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await shopper.getByRole('button', { name: 'Place Order' }).click();
    await shopper.getByRole('heading', { name: 'Order Confirmed!' }).waitFor();
    expect(await shopper.getByRole('heading', { name: 'Your downloads' }).count()).toBe(0);
    await shopper.getByRole('link', { name: 'View your order' }).click();
    await shopper.waitForURL(/\/orders\/\d+\?key=/);
    const orderId = Number(/\/orders\/(\d+)/.exec(shopper.url())?.[1]);

    // The admin marks it paid; the order page lists the link and its counts.
    await page.goto(`/admin/orders/${orderId}`);
    await page.waitForSelector('html[data-hydrated]');
    await page.getByRole('button', { name: 'Mark as paid' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Marked as paid');
    const adminDownloads = page.getByRole('region', { name: 'Downloads' });
    await adminDownloads.getByText('0 of 5 downloads').waitFor();
    await expectAccessible(page);

    const mail = await stack.smtp.waitFor((m) => m.subject === `Your downloads for order #${orderId}`);
    const mailedUrl = /(http:\/\/\S+\/downloads\/\S+)/.exec(mail.text)?.[1] ?? '';
    expect(mailedUrl).toMatch(/\/downloads\/\d+\.[A-Za-z0-9_-]{32}$/);

    // 1: the browser downloads it from the order page, byte for byte.
    await shopper.reload();
    await shopper.waitForSelector('html[data-hydrated]');
    const link = shopper.getByRole('link', { name: 'quiet-rooms.pdf' });
    await link.waitFor();
    expect(new URL(mailedUrl).pathname).toBe(await link.getAttribute('href'));
    await expectAccessible(shopper);
    const [download] = await Promise.all([shopper.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('quiet-rooms.pdf');
    const saved = await readFile((await download.path()) as string);
    expect(sha256(saved)).toBe(sha256(bytes));
    const count = async () =>
      (await stack.app.services.db('download_grants').where({ order_id: orderId }).first('downloads'))
        .downloads;
    await expect.poll(count).toBe(1);

    // 2: a resumed download: the rest from byte 1 MiB.
    const from = 1024 * 1024;
    const rest = await fetch(mailedUrl, { headers: { range: `bytes=${from}-` } });
    expect(rest.status).toBe(206);
    const whole = Buffer.concat([bytes.subarray(0, from), Buffer.from(await rest.arrayBuffer())]);
    expect(sha256(whole)).toBe(sha256(bytes));
    await expect.poll(count).toBe(2);

    // 3 to 5, then the 6th is refused with the message, in the browser too.
    for (let n = 3; n <= 5; n++) {
      const res = await fetch(mailedUrl);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      await expect.poll(count).toBe(n);
    }
    const sixth = await fetch(mailedUrl);
    expect(sixth.status).toBe(410);
    expect(await sixth.text()).toContain('Download limit reached');
    const refused = await shopper.goto(mailedUrl);
    expect(refused?.status()).toBe(410);
    await shopper.getByText('Download limit reached').waitFor();

    // The admin sees the count and resets it.
    await page.reload();
    await page.waitForSelector('html[data-hydrated]');
    await adminDownloads.getByText('5 of 5 downloads').waitFor();
    await adminDownloads.getByRole('button', { name: 'Reset the limit of quiet-rooms.pdf' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Download limit reset');
    await adminDownloads.getByText('0 of 5 downloads').waitFor();
    expect(problems).toEqual([]);
    expect(shopperProblems.filter((p) => !p.includes('410'))).toEqual([]);
    await guest.close();
    await adminContext.close();
  });
});
