import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPost } from '../../src/blog/post-editor.ts';
import { postInputSchema } from '../../src/blog/post-schema.ts';
import { MEMBER_MESSAGES } from '../../src/members/messages.ts';
import { TIER_MESSAGES } from '../../src/shop/tier-schema.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { expectAccessible, launchBrowser, newContext, watchPage } from '../support/browser.ts';
import { createTierViaApi } from '../support/members.ts';

let app: TestApp;
let browser: Browser;
let sid: string;
let admin: Record<string, string>;
let adminId: number;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  const session = await signedInSession(app, { role: 'admin' });
  ({ sid, headers: admin } = session);
  adminId = session.user.id;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('Admin → Members → Tiers in Chromium', () => {
  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ] as const)(
    'the admin creates a tier with money prices, edits it, is refused a sixth active tier and archives one (%s)',
    { timeout: 180_000 },
    async (mode, javaScriptEnabled) => {
      const name = `Patrons ${javaScriptEnabled ? 'js' : 'html'}`;
      const context = await newContext(browser, app.url, { javaScriptEnabled });
      const page = await context.newPage();
      const problems = await watchPage(page);
      await addSessionCookie(context, app.url, sid);
      const open = async () => {
        await page.goto('/admin?tab=members');
        if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated]');
      };
      // axe runs in the page's JavaScript: the run with it checks accessibility.
      const accessible = async () => {
        if (javaScriptEnabled) await expectAccessible(page);
      };
      const newTier = page.getByRole('form', { name: 'New tier' });

      await open();
      await accessible();
      await newTier.getByLabel('Name').fill(name);
      await newTier.getByLabel(/^Monthly price/).fill('abc');
      await newTier.getByLabel(/^Yearly price/).fill('50');
      await newTier.getByRole('button', { name: 'Create tier' }).click();
      // The schema's words beside the field, and what was typed kept.
      await page.locator('#tier-new-monthlyPrice-error').getByText(TIER_MESSAGES.priceInvalid).waitFor();
      expect(await newTier.getByLabel('Name').inputValue()).toBe(name);
      await accessible();
      await newTier.getByLabel(/^Monthly price/).fill('5.50');
      await newTier.getByRole('button', { name: 'Create tier' }).click();
      await page.getByRole('status').getByText(TIER_MESSAGES.created).waitFor();
      const heading = `${name}: $5.50 a month · $50.00 a year`;
      await page.getByRole('heading', { name: heading }).waitFor();
      const created = await app.services.db('tiers').where({ name }).first();
      expect(created).toMatchObject({ monthly_price: 550, yearly_price: 5000, active: true });

      const edit = page.getByRole('form', { name: heading });
      await edit.getByLabel('Description').fill('Every essay, and my thanks');
      await edit.getByLabel(/^Yearly price/).fill('55');
      await edit.getByRole('button', { name: `Save tier ${name}` }).click();
      await page.getByRole('status').getByText(TIER_MESSAGES.saved).waitFor();
      await page.getByRole('heading', { name: `${name}: $5.50 a month · $55.00 a year` }).waitFor();
      expect(await app.services.db('tiers').where({ id: created.id }).first()).toMatchObject({
        description: 'Every essay, and my thanks',
        yearly_price: 5500,
      });

      // Filled up to the limit through the API: a sixth active tier is refused in the API's words.
      const active = Number((await app.services.db('tiers').where({ active: true }).count({ n: '*' }))[0].n);
      for (let i = active; i < 5; i++)
        await createTierViaApi(app, admin, {
          name: `Filler ${mode} ${i}`,
          monthlyPrice: 100,
          yearlyPrice: 1000,
        });
      await open();
      await newTier.getByLabel('Name').fill('One too many');
      await newTier.getByLabel(/^Monthly price/).fill('1');
      await newTier.getByLabel(/^Yearly price/).fill('10');
      await newTier.getByRole('button', { name: 'Create tier' }).click();
      await page.locator('#tier-new-active-error').getByText(TIER_MESSAGES.tooMany).waitFor();
      expect(await app.services.db('tiers').where({ name: 'One too many' }).first()).toBeUndefined();
      await accessible();

      // Archiving every active tier leaves room for the next run, and marks each archived.
      const ids = (await app.services.db('tiers').where({ active: true }).select('id', 'name')) as {
        id: number;
        name: string;
      }[];
      for (const t of ids) {
        const archive = page.getByRole('button', { name: `Archive ${t.name}`, exact: true });
        await archive.click();
        await archive.waitFor({ state: 'detached' });
        await page.getByRole('status').getByText(TIER_MESSAGES.archived).waitFor();
      }
      expect(await app.services.db('tiers').where({ active: true }).first()).toBeUndefined();
      await page.getByRole('heading', { name: `${name}: $5.50 a month · $55.00 a year` }).waitFor();
      expect(await page.locator('.badge', { hasText: 'Archived' }).count()).toBeGreaterThanOrEqual(
        ids.length,
      );
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});

describe('a member’s panel in Admin → Members in Chromium', () => {
  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ] as const)(
    'the admin opens a member, is asked for a tier, gives a complimentary membership until a date, sees it in the history and ends it (%s)',
    { timeout: 120_000 },
    async (_mode, javaScriptEnabled) => {
      const tier = await createTierViaApi(app, admin, {
        name: `Friends ${javaScriptEnabled ? 'js' : 'html'}`,
        monthlyPrice: 300,
        yearlyPrice: 3000,
      });
      const { user } = await signedInSession(app);
      const context = await newContext(browser, app.url, { javaScriptEnabled });
      const page = await context.newPage();
      const problems = await watchPage(page);
      await addSessionCookie(context, app.url, sid);
      await page.goto('/admin?tab=members');
      if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated]');
      await page.getByRole('link', { name: `History and complimentary membership of ${user.email}` }).click();
      await page.getByRole('heading', { name: user.email, level: 2 }).waitFor();
      await page.getByText('No changes yet').waitFor();
      if (javaScriptEnabled) await expectAccessible(page);
      const comp = page.getByRole('form', { name: 'Complimentary membership' });
      await comp.getByRole('button', { name: 'Give complimentary membership' }).click();
      await page.locator('#tierId-error').getByText('Choose a tier').waitFor();
      await comp.getByLabel('Tier').selectOption(String(tier.id));
      await comp.getByLabel(/^Until/).fill('2099-01-31');
      await comp.getByRole('button', { name: 'Give complimentary membership' }).click();
      await page.getByRole('status').getByText(MEMBER_MESSAGES.comped).waitFor();
      await page.getByText('Membership: Complimentary').waitFor();
      await page
        .getByRole('list', { name: 'Subscription history' })
        .getByText(`comped, Complimentary, ${tier.name}`)
        .waitFor();
      const member = await fetch(`${app.url}/api/admin/members/${user.id}`, { headers: admin });
      expect((await member.json()).membership).toMatchObject({ status: 'comped', tierId: tier.id });

      const end = page.getByRole('button', { name: 'End complimentary membership' });
      await end.click();
      await page.getByRole('status').getByText(MEMBER_MESSAGES.compEnded).waitFor();
      await page.getByText('Membership: Free').waitFor();
      await page.getByRole('list', { name: 'Subscription history' }).getByText('comp ended, Free').waitFor();
      expect(await end.count()).toBe(0);
      const ended = await fetch(`${app.url}/api/admin/members/${user.id}`, { headers: admin });
      expect((await ended.json()).membership).toMatchObject({ status: 'free', tierId: null });
      if (javaScriptEnabled) await expectAccessible(page);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});

describe('the post editor’s tier choice in Chromium', () => {
  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ] as const)(
    'a paid post is limited to a chosen tier through the editor’s form (%s)',
    { timeout: 120_000 },
    async (_mode, javaScriptEnabled) => {
      const tier = await createTierViaApi(app, admin, {
        name: `Insiders ${javaScriptEnabled ? 'js' : 'html'}`,
        monthlyPrice: 800,
        yearlyPrice: 8000,
      });
      const post = await createPost(
        app.services.db,
        app.services.queues,
        postInputSchema.parse({
          title: `Members only ${javaScriptEnabled ? 'js' : 'html'}`,
          content: 'Public words.\n\n[paywall]\n\nPaid words.',
          excerpt: 'An excerpt',
          category: 'Technology',
          status: 'published',
        }),
        adminId,
      );
      const context = await newContext(browser, app.url, { javaScriptEnabled });
      const page = await context.newPage();
      await addSessionCookie(context, app.url, sid);
      await page.goto(`/admin/posts/${post.id}`);
      const choice = page.getByRole('checkbox', { name: tier.name });
      if (javaScriptEnabled) {
        await page.waitForSelector('html[data-hydrated]');
        // Shown for paid posts only.
        expect(await choice.isVisible()).toBe(false);
      }
      await page.getByLabel('Who can read it').selectOption('paid');
      await choice.check();
      await page.getByRole('button', { name: 'Update Post' }).click();
      await expect
        .poll(async () => (await app.services.db('posts').where({ id: post.id }).first()).visibility_tiers)
        .toEqual([tier.id]);
      expect((await app.services.db('posts').where({ id: post.id }).first()).visibility).toBe('paid');
      await context.close();
    },
  );
});
