import { afterAll, expect, it } from 'vitest';
import { requestNewsletter } from '../../src/blog/newsletter-delivery.ts';
import { startWorkerlessApp, type WorkerlessApp } from '../support/process.ts';
import { until } from '../support/until.ts';
import { recordMailFault } from './summary.ts';

const SUBSCRIBERS = 500;

let stack: WorkerlessApp | undefined;
afterAll(() => stack?.close());

it('mails each of 500 subscribers exactly once when the worker is SIGKILLed in the middle of the send', async () => {
  stack = await startWorkerlessApp({ LOG_LEVEL: 'warn', NEWSLETTER_RATE_PER_SECOND: '1000' });
  const { app, smtp } = stack;
  const { db } = app.services;
  const emails = Array.from({ length: SUBSCRIBERS }, (_, i) => `reader${i}@example.com`);
  await db('newsletter_subscribers').insert(
    emails.map((email, i) => ({ email, status: 'confirmed', token: `kill-test-token-${i}-xxxxxxxxxxxx` })),
  );
  const [post] = await db('posts')
    .insert({
      title: 'The letter that survived',
      slug: 'the-letter-that-survived',
      content: 'Body',
      content_html: '<p>Body</p>',
      excerpt: 'Body',
      category: 'Technology',
      status: 'published',
      published_at: new Date(),
    })
    .returning('id');
  await requestNewsletter(db, post.id, null);

  let worker = stack.startWorker();
  await until(() => smtp.messages.length >= 150, 'a third of the newsletter going out', 120_000);
  // The next mail is held in DATA (not yet accepted) when the worker dies.
  smtp.stall(true);
  await until(() => smtp.stalled.length >= 1, 'a mail held in DATA', 120_000);
  worker.child.kill('SIGKILL');
  await worker.exited;
  await until(() => smtp.stalled.length === 0, 'the held connection closing');
  smtp.stall(false);
  const before = smtp.messages.length;
  expect(before).toBeLessThan(SUBSCRIBERS);

  // A new worker takes the interrupted batch back (its lock expired) and the rest.
  worker = stack.startWorker();
  await until(
    async () => (await db('newsletters').where({ post_id: post.id }).first('state')).state === 'sent',
    'the newsletter finishing',
    180_000,
  );
  worker.child.kill('SIGTERM');
  await worker.exited;

  const perAddress = emails.map((e) => smtp.messages.filter((m) => m.to.includes(e)).length);
  await recordMailFault(perAddress);
  expect(perAddress.filter((n) => n !== 1)).toEqual([]);
  const sent = await db('newsletter_sends')
    .where({ post_id: post.id, status: 'sent' })
    .count({ n: '*' })
    .first();
  expect(Number(sent?.n)).toBe(SUBSCRIBERS);
});
