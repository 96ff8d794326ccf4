import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docToMarkdown, markdownToDoc } from '../../src/app/admin/rich-editor/markdown-doc.ts';
import { renderMarkdown } from '../../src/blog/markdown.ts';
import { runImport } from '../../src/import/import.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { seedDemo } from '../support/blog.ts';
import { GHOST_FIXTURE, WXR_FIXTURE } from '../support/import-fixtures.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
  await runImport(app.services, WXR_FIXTURE);
  await runImport(app.services, GHOST_FIXTURE);
});

afterAll(async () => {
  await app?.close();
});

describe('the rich editor over stored posts', () => {
  it('loads and writes back every seeded and imported post unchanged, rendering the same HTML', async () => {
    const posts: { slug: string; content: string; content_html: string }[] = await app.services
      .db('posts')
      .select('slug', 'content', 'content_html');
    // The demo posts and both imports: WordPress's theme unit test and Ghost's export.
    expect(posts.length).toBeGreaterThan(40);
    for (const post of posts) {
      const written = docToMarkdown(markdownToDoc(post.content));
      expect(written, post.slug).toBe(post.content);
      expect(renderMarkdown(written), post.slug).toBe(post.content_html);
    }
  });
});
