import { afterAll, expect, it } from 'vitest';
import { requestNewsletter } from '../../src/blog/newsletter-delivery.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { type RunningProcess, startProcess } from '../support/process.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { until } from '../support/until.ts';
import { recordMailFault } from './summary.ts';

const SUBSCRIBERS = 500;

let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
let database: TestDatabase | undefined;
let app: TestApp | undefined;
let worker: RunningProcess | undefined;
afterAll(async () => {
  worker?.child.kill('SIGKILL');
  await app?.close();
  await smtp?.close();
  await database?.drop();
});

it('mails each of 500 subscribers exactly once when the worker is SIGKILLed in the middle of the send', async () => {
  smtp = await startSmtpServer();
  database = await createTestDatabase();
  app = await startTestApp({ database });
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

  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
    NEWSLETTER_RATE_PER_SECOND: '1000',
  };
  worker = startProcess('workers/main.ts', [], env);
  await until(() => (smtp?.messages.length ?? 0) >= 150, 'a third of the newsletter going out', 120_000);
  // The next mail is held in DATA (not yet accepted) when the worker dies.
  smtp.stall(true);
  await until(() => (smtp?.stalled.length ?? 0) >= 1, 'a mail held in DATA', 120_000);
  worker.child.kill('SIGKILL');
  await worker.exited;
  await until(() => smtp?.stalled.length === 0, 'the held connection closing');
  smtp.stall(false);
  const before = smtp.messages.length;
  expect(before).toBeLessThan(SUBSCRIBERS);

  // A new worker takes the interrupted batch back (its lock expired) and the rest.
  worker = startProcess('workers/main.ts', [], env);
  await until(
    async () => (await db('newsletters').where({ post_id: post.id }).first('state')).state === 'sent',
    'the newsletter finishing',
    180_000,
  );
  worker.child.kill('SIGTERM');
  await worker.exited;

  const perAddress = emails.map((e) => smtp?.messages.filter((m) => m.to.includes(e)).length ?? 0);
  await recordMailFault(perAddress);
  expect(perAddress.filter((n) => n !== 1)).toEqual([]);
  const sent = await db('newsletter_sends')
    .where({ post_id: post.id, status: 'sent' })
    .count({ n: '*' })
    .first();
  expect(Number(sent?.n)).toBe(SUBSCRIBERS);
});
