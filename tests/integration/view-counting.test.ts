import { describe, expect, inject, it } from 'vitest';
import { ViewRecorder } from '../../src/blog/views.ts';
import { startTestApp } from '../support/app.ts';

async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

describe.each(['postgres', 'redis'] as const)('view counting through the %s queue', (queue) => {
  it.skipIf(queue === 'redis' && !inject('redisUrl'))(
    'counts each viewer once per post per day, in batches through the worker',
    async () => {
      const app = await startTestApp({ queue, withWorker: true });
      try {
        const { db } = app.services;
        const [post] = await db('posts')
          .insert({
            title: 'Counted',
            slug: 'counted',
            content: 'x',
            excerpt: 'x',
            category: 'Life',
            status: 'published',
          })
          .returning('id');
        const recorder = new ViewRecorder(app.services.queues, 50);
        recorder.record(post.id, 'session-a');
        recorder.record(post.id, 'session-a');
        recorder.record(post.id, 'session-b');
        await recorder.flush();
        const counted = await waitFor(
          async () => (await db('posts').where({ id: post.id }).first('view_count')).view_count as number,
          (n) => n === 2,
        );
        expect(counted).toBe(2);

        // The same viewer on the same day again: not counted; on the next day: counted.
        recorder.record(post.id, 'session-a');
        recorder.record(post.id, 'session-a', new Date(Date.now() + 86_400_000));
        await recorder.flush();
        const after = await waitFor(
          async () => (await db('posts').where({ id: post.id }).first('view_count')).view_count as number,
          (n) => n === 3,
        );
        expect(after).toBe(3);
      } finally {
        await app.close();
      }
    },
  );
});
