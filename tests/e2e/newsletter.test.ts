import { beforeAll, describe, expect, it } from 'vitest';
import { addSessionCookie, signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { newContext, setUpBrowserApp, watchPage } from '../support/browser.ts';

const READER = 'letter-reader@example.com';

const stack = setUpBrowserApp({ NEWSLETTER_RATE_PER_SECOND: '100' });
beforeAll(async () => {
  await seedDemo(stack.app);
});

describe('the newsletter, from the footer to the inbox and out again', () => {
  it('subscribes, confirms, receives a post sent from the editor, unsubscribes and gets no more', {
    timeout: 90_000,
  }, async () => {
    const reader = await (await newContext(stack.browser, stack.app.url)).newPage();
    const readerProblems = await watchPage(reader);
    await reader.goto('/about');
    await reader.waitForSelector('html[data-hydrated]');
    const footer = reader.locator('footer');
    await footer.getByLabel('Email address').fill(READER);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await footer.getByRole('status').waitFor();
    const confirm = await stack.smtp.waitFor(
      (m) => m.to.includes(READER) && m.subject === 'Confirm your subscription',
    );
    await reader.goto(/(http\S+\/newsletter\/confirm\?token=\S+)/.exec(confirm.text)?.[1] ?? '');
    await reader.getByRole('heading', { name: 'Subscription confirmed' }).waitFor();

    const { db } = stack.app.services;
    const [first, second] = await db('posts')
      .where({ status: 'published' })
      .orderBy('id')
      .limit(2)
      .select('id', 'title');
    const { sid } = await signedInSession(stack.app, { role: 'admin' });
    const adminContext = await newContext(stack.browser, stack.app.url);
    await addSessionCookie(adminContext, stack.app.url, sid);
    const admin = await adminContext.newPage();
    const adminProblems = await watchPage(admin);
    const sendFromEditor = async (postId: number) => {
      await admin.goto(`/admin/posts/${postId}`);
      await admin.waitForSelector('html[data-hydrated]');
      const card = admin.getByRole('region', { name: 'Send as a newsletter' });
      const subscribers = await db('newsletter_subscribers').where({ status: 'confirmed' }).count({ n: '*' });
      const n = Number(subscribers[0].n);
      const button = card.getByRole('button', {
        name: `Send by email to ${n} ${n === 1 ? 'subscriber' : 'subscribers'}`,
      });
      // The confirmation tick is required: without it nothing is sent.
      await button.click();
      expect(await db('newsletters').where({ post_id: postId }).first()).toBeUndefined();
      await card.getByRole('checkbox').check();
      await button.click();
      await expect
        .poll(() => card.getByTestId('newsletter-progress').textContent(), { timeout: 20_000 })
        .toMatch(/^Sent: /);
      return card;
    };

    const card = await sendFromEditor(first.id);
    expect(await card.getByTestId('newsletter-progress').textContent()).toMatch(
      /^Sent: \d+ of \d+ delivered\.$/,
    );
    const letter = await stack.smtp.waitFor((m) => m.to.includes(READER) && m.subject === first.title);
    expect(letter.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    await reader.goto(/Unsubscribe: (\S+)/.exec(letter.text)?.[1] ?? '');
    await reader.getByRole('button', { name: 'Unsubscribe' }).click();
    await reader.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();

    // Another reader is still subscribed: the next post goes out, but not to the one who left.
    await db('newsletter_subscribers').insert({
      email: 'still-here@example.com',
      status: 'confirmed',
      token: 'still-here-token-xxxxxxxxxxxxxxxx',
    });
    await sendFromEditor(second.id);
    await stack.smtp.waitFor((m) => m.to.includes('still-here@example.com') && m.subject === second.title);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(
      stack.smtp.messages.filter((m) => m.to.includes(READER) && m.subject === second.title),
    ).toHaveLength(0);
    expect(readerProblems).toEqual([]);
    expect(adminProblems).toEqual([]);
  });
});
