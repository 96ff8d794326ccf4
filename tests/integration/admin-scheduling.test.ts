import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;
beforeAll(async () => {
  app = await startTestApp({ withWorker: true });
  admin = await signedInSession(app, { role: 'admin' });
});
afterAll(async () => {
  await app?.close();
});

const base = { content: 'Body', excerpt: 'Soon', category: 'Life', status: 'scheduled' };
async function save(method: 'POST' | 'PUT', body: Record<string, unknown>, id?: number) {
  const res = await fetch(`${app.url}/api/posts${id ? `?id=${id}` : ''}`, {
    method,
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...base, ...body }),
  });
  expect(res.ok).toBe(true);
  return ((await res.json()) as { post: { id: number; publishAt: string } }).post;
}
const statusOf = async (id: number) => (await app.services.db('posts').where({ id }).first()).status;

describe('scheduled publishing', () => {
  it('publishes a scheduled post through the delayed job when its time comes', async () => {
    const post = await save('POST', {
      title: 'Tomorrow today',
      publishAt: new Date(Date.now() + 1_500).toISOString(),
    });
    expect(await statusOf(post.id)).toBe('scheduled');
    await expect.poll(() => statusOf(post.id), { timeout: 20_000, interval: 250 }).toBe('published');
    const row = await app.services.db('posts').where({ id: post.id }).first();
    expect(row.published_at.getTime()).toBe(row.publish_at.getTime());
  });

  it('follows a reschedule: the earlier job finds nothing to do', async () => {
    const post = await save('POST', {
      title: 'Moved',
      publishAt: new Date(Date.now() + 1_000).toISOString(),
    });
    await save(
      'PUT',
      { title: 'Moved', publishAt: new Date(Date.now() + 60 * 60 * 1000).toISOString() },
      post.id,
    );
    // Wait past the first time; the job for it runs and must leave the post scheduled.
    const firstJob = `publish-post-${post.id}-${new Date(post.publishAt).getTime()}`;
    await expect
      .poll(async () => (await app.services.queues.queue('maintenance').getJob(firstJob))?.finishedOn ?? 0, {
        timeout: 20_000,
        interval: 250,
      })
      .toBeGreaterThan(0);
    expect(await statusOf(post.id)).toBe('scheduled');
  });
});
