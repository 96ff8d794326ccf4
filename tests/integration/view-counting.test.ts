import { describe, expect, inject, it } from 'vitest';
import type { PageView } from '../../src/analytics/recorder.ts';
import { startTestApp } from '../support/app.ts';
import { until } from '../support/until.ts';

describe.each(['postgres', 'redis'] as const)('view counting through the %s queue', (queue) => {
  it.skipIf(queue === 'redis' && !inject('redisUrl'))(
    'counts each viewer once per post per day, in batches through the worker',
    async () => {
      const app = await startTestApp({ queue, withWorker: true });
      try {
        const { db, pageViews } = app.services;
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
        const view = (sessionId: string): PageView => ({
          path: '/post/counted',
          postId: post.id,
          productId: null,
          visitor: null,
          sessionId,
          source: 'direct',
          device: 'desktop',
          country: null,
        });
        const viewCount = async () =>
          (await db('posts').where({ id: post.id }).first('view_count')).view_count as number;
        pageViews.record(view('session-a'));
        pageViews.record(view('session-a'));
        pageViews.record(view('session-b'));
        await pageViews.flush();
        await until(async () => (await viewCount()) === 2, 'two views counted', 15_000);

        // The same viewer on the same day again: not counted; on the next day: counted.
        pageViews.record(view('session-a'));
        await pageViews.flush();
        pageViews.clock = () => new Date(Date.now() + 86_400_000);
        pageViews.record(view('session-a'));
        await pageViews.flush();
        await until(async () => (await viewCount()) === 3, 'the next day counted', 15_000);
        expect(await viewCount()).toBe(3);
      } finally {
        await app.close();
      }
    },
  );
});
