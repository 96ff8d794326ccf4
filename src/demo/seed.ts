import { renderMarkdown } from '../blog/markdown.ts';
import { slugify } from '../blog/slug.ts';
import type { Db } from '../db/knex.ts';
import { variantLabel } from '../shop/variants.ts';
import { demoComments, demoPosts, demoProducts, demoSettings } from './demo-content.ts';

const SEEDED_KEY = 'demo_seeded_at';

/**
 * Seeds the demo content once, written by the first admin, into a site without posts or products.
 * Returns false when it had been seeded (or skipped) before, or the site has content.
 */
export async function seedDemoContent(db: Db, opts: { alongsideContent?: boolean } = {}): Promise<boolean> {
  return db.transaction(async (trx) => {
    const admin = await trx('users').where({ role: 'admin' }).orderBy('id').first('id');
    const authorId: number | null = admin?.id ?? null;
    const inserted = await trx('app_meta')
      .insert({ key: SEEDED_KEY, value: JSON.stringify(new Date().toISOString()) })
      .onConflict('key')
      .ignore()
      .returning('key');
    if (!inserted.length) return false;
    // A site that has content already (moved here by an import before its first start) is never
    // seeded: the demo would mix with it, and its slugs clash. Tests seed beside rows of their own.
    const { rows } = await trx.raw(
      'SELECT EXISTS (SELECT 1 FROM posts) OR EXISTS (SELECT 1 FROM products) AS has',
    );
    if (rows[0].has && !opts.alongsideContent) return false;

    await trx('blog_settings')
      .insert({ id: 1, ...demoSettings, social_links: JSON.stringify(demoSettings.social_links) })
      .onConflict('id')
      .ignore();

    const now = Date.now();
    const postIds: number[] = [];
    for (const post of demoPosts) {
      const created = new Date(now - post.daysAgo * 86_400_000 - 3_600_000);
      const status = post.status ?? 'published';
      const [row] = await trx('posts')
        .insert({
          title: post.title,
          slug: slugify(post.title),
          content: post.body,
          content_html: renderMarkdown(post.body),
          excerpt: post.excerpt,
          category: post.category,
          tags: post.tags,
          featured_image: post.image ?? null,
          youtube_video_id: post.youtubeVideoId ?? null,
          podcast_url: post.podcastUrl ?? null,
          featured: post.featured ?? false,
          status,
          published_at: status === 'published' ? created : null,
          author_id: authorId,
          view_count: status === 'published' ? 40 + ((post.title.length * 37) % 900) : 0,
          created_at: created,
          updated_at: created,
        })
        .returning('id');
      if (status === 'published') postIds.push(row.id);
    }

    for (const [i, postId] of postIds.slice(0, 6).entries()) {
      const comments = demoComments.slice(0, 3 + (i % 3)).map((c, j) => ({
        post_id: postId,
        author: c.author,
        email: c.email,
        content: c.content,
        approved: c.approved,
        created_at: new Date(now - (i * 3 + j) * 3_600_000),
      }));
      await trx('comments').insert(comments);
    }

    const products: { id: number }[] = await trx('products')
      .insert(
        demoProducts.map((p, i) => ({
          name: p.name,
          description: p.description,
          price: p.price,
          category: p.category,
          featured: p.featured ?? false,
          status: p.status ?? 'active',
          image: p.image ?? null,
          images: JSON.stringify(p.image ? [p.image] : []),
          options: JSON.stringify(p.options ?? []),
          created_at: new Date(now - i * 86_400_000),
          updated_at: new Date(now - i * 86_400_000),
        })),
      )
      .returning('id');
    for (const [i, { id }] of products.entries()) {
      const { stock, options = [], variants = [] } = demoProducts[i];
      await trx('stock_levels').insert({ product_id: id, variant_id: 0, stock });
      for (const [position, v] of variants.entries()) {
        const [variant] = await trx('product_variants')
          .insert({
            product_id: id,
            position,
            options: JSON.stringify(v.options),
            label: variantLabel(options, v.options),
            sku: v.sku,
            price: v.price ?? null,
          })
          .returning('id');
        await trx('stock_levels').insert({ product_id: id, variant_id: variant.id, stock: v.stock });
      }
    }
    return true;
  });
}
