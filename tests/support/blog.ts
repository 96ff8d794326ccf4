import { seedDemoContent } from '../../src/demo/seed.ts';
import { ensureAdmin } from '../../src/identity/admin.ts';
import type { TestApp } from './app.ts';

/** The demo blog (posts, comments, products, settings) in the test's database, beside what the test made. */
export async function seedDemo(app: TestApp): Promise<void> {
  await ensureAdmin(app.services.db, undefined);
  await seedDemoContent(app.services.db, { alongsideContent: true });
}

export async function publishedPost(app: TestApp, slug?: string) {
  const query = app.services.db('posts').where({ status: 'published' });
  if (slug) query.where({ slug });
  return query.orderBy('published_at', 'desc').first();
}
