import type { Db } from '../db/knex.ts';
import { measureUpload } from '../media/measure-upload.ts';
import type { UploadStorage } from '../media/storage.ts';
import { uploadSizes, uploadsIn } from '../media/upload-sizes.ts';
import { renderMarkdown } from './markdown.ts';
import { previewColumns, withoutPaywallLine } from './paywall.ts';
import type { PostVisibility } from './post-schema.ts';

/**
 * Renders every post's stored HTML again from its Markdown, a batch at a time: posts saved before
 * a change to the renderer (code highlighting, figures) get it without being edited. The post's
 * version and dates stay: what the writer wrote has not changed. Returns how many changed.
 * Uploads in a body stored before their sizes were recorded (old and imported posts) are measured
 * from the storage on the way, and get their body variants.
 */
export async function rerenderPosts(db: Db, storage: UploadStorage, batchSize = 200): Promise<number> {
  let changed = 0;
  for (let after = 0; ; ) {
    const rows: {
      id: number;
      content: string;
      content_html: string;
      visibility: PostVisibility;
      preview_html: string | null;
    }[] = await db('posts')
      .where('id', '>', after)
      .orderBy('id')
      .limit(batchSize)
      .select('id', 'content', 'content_html', 'visibility', 'preview_html');
    if (!rows.length) return changed;
    for (const row of rows) {
      const names = uploadsIn(row.content);
      const sizes = await uploadSizes(db, names);
      for (const name of names.filter((n) => !sizes.has(n))) {
        const size = await measureUpload(db, storage, name);
        if (size) sizes.set(name, size);
      }
      // A gated post's whole body and its public preview, each as a save renders them.
      const html = renderMarkdown(withoutPaywallLine(row.content), sizes);
      const preview = previewColumns(row.content, row.visibility, sizes);
      if (html === row.content_html && preview.preview_html === row.preview_html) continue;
      await db('posts')
        .where({ id: row.id })
        .update({ content_html: html, ...preview });
      changed++;
    }
    after = rows[rows.length - 1].id;
  }
}
