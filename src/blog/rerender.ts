import type { Db } from '../db/knex.ts';
import { renderMarkdown } from './markdown.ts';

/**
 * Renders every post's stored HTML again from its Markdown, a batch at a time: posts saved before
 * a change to the renderer (code highlighting, figures) get it without being edited. The post's
 * version and dates stay: what the writer wrote has not changed. Returns how many changed.
 */
export async function rerenderPosts(db: Db, batchSize = 200): Promise<number> {
  let changed = 0;
  for (let after = 0; ; ) {
    const rows: { id: number; content: string; content_html: string }[] = await db('posts')
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .select('id', 'content', 'content_html');
    if (!rows.length) return changed;
    for (const row of rows) {
      const html = renderMarkdown(row.content);
      if (html === row.content_html) continue;
      await db('posts').where({ id: row.id }).update({ content_html: html });
      changed++;
    }
    after = rows[rows.length - 1].id;
  }
}
