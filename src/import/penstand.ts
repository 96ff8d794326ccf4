import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { renderMarkdown } from '../blog/markdown.ts';
import { previewColumns, withoutPaywallLine } from '../blog/paywall.ts';
import { syncProducts } from '../blog/post-editor.ts';
import type { PostVisibility } from '../blog/post-schema.ts';
import type { Db } from '../db/knex.ts';
import { restoreDocumentCounters } from '../orders/document-numbers.ts';
import { rebuildProjections } from '../orders/store.ts';
import { STOCK_COLUMN_SQL, setStock } from '../shop/stock.ts';
import { memberAccount } from './members.ts';
import { ImportError } from './types.ts';

/**
 * The version of the export document; an importer refuses versions it does not know. Version 2
 * added the posts' SEO fields, import sources, revisions and newsletter state, the comments'
 * import sources, and the discount codes with their uses; a version 1 document still imports.
 */
export const EXPORT_VERSION = 2;
const READABLE_VERSIONS = [1, 2];

type Json = Record<string, unknown>;

export type PenstandExport = {
  penstand_export: number;
  exported_at: string;
  settings: Json | null;
  tags: string[];
  posts: (Json & { comments: Json[]; old_slugs: string[]; revisions?: Json[]; newsletter?: Json | null })[];
  products: Json[];
  subscribers: Json[];
  orders: { id: number; events: Json[] }[];
  discounts?: (Json & { uses: Json[] })[];
  /** Membership tiers, with their ids: paid posts name them. */
  tiers?: Json[];
  /** Reader accounts (no passwords) and their memberships, keyed by email. */
  members?: (Json & { membership: Json | null })[];
};

/** Where `npm run export` writes the uploads of an export file, and `npm run import` finds them. */
export const uploadsBeside = (file: string) => `${file.replace(/\.json$/i, '')}.uploads.tar.gz`;

export function isPenstandExport(document: unknown): document is PenstandExport {
  return typeof document === 'object' && document !== null && 'penstand_export' in document;
}

const POST_COLUMNS = [
  'slug',
  'title',
  'content',
  'excerpt',
  'category',
  'tags',
  'featured_image',
  'featured_image_file',
  'youtube_video_id',
  'podcast_url',
  'status',
  'publish_at',
  'published_at',
  'featured',
  'view_count',
  'created_at',
  'updated_at',
  'meta_title',
  'meta_description',
  'canonical_url',
  'social_image',
  'visibility',
  'visibility_tiers',
  'source_system',
  'source_site',
  'source_id',
];
const TIER_COLUMNS = ['id', 'name', 'description', 'monthly_price', 'yearly_price', 'active', 'created_at'];
const COMMENT_COLUMNS = [
  'author',
  'email',
  'content',
  'likes',
  'approved',
  'rejected',
  'held_reason',
  'created_at',
  'updated_at',
  'source_system',
  'source_site',
  'source_id',
];
/** Left out of an older export: their defaults. */
const COMMENT_FLAGS = ['by_author', 'notify'];
/** A post's revisions, without their author (accounts are not exported). */
const REVISION_COLUMNS = [
  'kind',
  'version',
  'title',
  'excerpt',
  'content',
  'settings',
  'created_at',
  'updated_at',
];
/** Whether the post went out as a newsletter, so the moved site does not offer to send it again. */
const NEWSLETTER_COLUMNS = ['state', 'total', 'created_at', 'started_at', 'finished_at'];
const DISCOUNT_COLUMNS = [
  'id',
  'code',
  'type',
  'value',
  'usage_limit',
  'per_email_limit',
  'starts_at',
  'ends_at',
  'min_subtotal',
  'product_ids',
  'categories',
  'active',
  'created_at',
  'updated_at',
];
const DISCOUNT_USE_COLUMNS = ['order_id', 'email', 'created_at'];
const PRODUCT_COLUMNS = [
  'id',
  'name',
  'description',
  'price',
  'image',
  'images',
  'category',
  'featured',
  'status',
  'options',
  'created_at',
  'updated_at',
];
const VARIANT_COLUMNS = ['id', 'position', 'options', 'label', 'sku', 'price', 'image'];
const MEMBER_COLUMNS = ['email', 'first_name', 'last_name', 'created_at'];
/** A membership but its history and private feed token (a new site issues a new one when asked). */
const MEMBERSHIP_COLUMNS = [
  'status',
  'tier_id',
  'interval',
  'current_period_end',
  'cancel_at_period_end',
  'past_due_since',
  'comped_until',
  'stripe_customer_id',
  'stripe_subscription_id',
];
const SUBSCRIBER_COLUMNS = ['email', 'status', 'created_at', 'confirmed_at', 'unsubscribed_at', 'bounced_at'];

/**
 * The whole site as one JSON document: settings, posts (Markdown, SEO fields, import sources) with
 * their comments, old slugs, revisions and newsletter state, tags, products, newsletter
 * subscribers, orders as their event streams, and discount codes with their uses. Accounts are
 * not part of it (passwords stay behind): a post's author travels as its byline.
 */
export async function exportSite(db: Db): Promise<PenstandExport> {
  const settingsRow = await db('blog_settings').where({ id: 1 }).first();
  const settings = settingsRow
    ? Object.fromEntries(Object.entries(settingsRow).filter(([k]) => !['id', 'updated_at'].includes(k)))
    : null;
  const posts = await db('posts as p')
    .leftJoin('users as u', 'u.id', 'p.author_id')
    .orderBy('p.id')
    .select(
      'p.id',
      ...POST_COLUMNS.map((c) => `p.${c}`),
      db.raw(
        `coalesce(CASE WHEN u.first_name <> '' AND u.last_name <> '' THEN u.first_name || ' ' || u.last_name END, u.username, p.author_name) AS author`,
      ),
    );
  const comments = await db('comments')
    .orderBy('id')
    .select('id', 'post_id', 'reply_to_id', ...COMMENT_COLUMNS, ...COMMENT_FLAGS);
  const history = await db('post_slug_history').orderBy('slug').select('post_id', 'slug');
  const revisions = await db('post_revisions')
    .orderBy('id')
    .select('post_id', ...REVISION_COLUMNS);
  const newsletters = await db('newsletters').select('post_id', ...NEWSLETTER_COLUMNS);
  const uses = await db('discount_uses')
    .orderBy('order_id')
    .select('discount_id', ...DISCOUNT_USE_COLUMNS);
  const events = await db('order_events')
    .orderBy(['order_id', 'version'])
    .select('order_id', 'version', 'type', 'data', 'metadata', 'created_at');
  const orders = new Map<number, Json[]>();
  for (const { order_id, ...event } of events) orders.set(order_id, [...(orders.get(order_id) ?? []), event]);
  return {
    penstand_export: EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    settings,
    tags: (await db.raw('SELECT DISTINCT unnest(tags) AS tag FROM posts ORDER BY tag')).rows.map(
      (r: { tag: string }) => r.tag,
    ),
    posts: posts.map(({ id, ...post }) => ({
      ...post,
      comments: threaded(comments.filter((c) => c.post_id === id)),
      old_slugs: history.filter((h) => h.post_id === id).map((h) => h.slug),
      revisions: revisions.filter((r) => r.post_id === id).map(({ post_id, ...r }) => r),
      newsletter:
        newsletters
          .filter((n) => n.post_id === id)
          .map(({ post_id, ...n }) => n)
          .at(0) ?? null,
    })),
    products: await exportProducts(db),
    subscribers: await db('newsletter_subscribers').orderBy('id').select(SUBSCRIBER_COLUMNS),
    orders: [...orders].map(([id, list]) => ({ id, events: list })),
    discounts: (await db('discount_codes').orderBy('id').select(DISCOUNT_COLUMNS)).map((discount) => ({
      ...discount,
      uses: uses.filter((u) => u.discount_id === discount.id).map(({ discount_id, ...u }) => u),
    })),
    tiers: await db('tiers').orderBy('id').select(TIER_COLUMNS),
    members: await exportMembers(db),
  };
}

/** Every confirmed reader account (the members) with its membership, if it has one. */
async function exportMembers(db: Db): Promise<(Json & { membership: Json | null })[]> {
  const rows: Json[] = await db('users as u')
    .leftJoin('memberships as m', 'm.user_id', 'u.id')
    .where({ 'u.role': 'user', 'u.email_verified': true })
    .orderBy('u.id')
    .select([
      ...MEMBER_COLUMNS.map((c) => `u.${c}`),
      'm.user_id',
      ...MEMBERSHIP_COLUMNS.map((c) => `m.${c}`),
    ]);
  return rows.map((row) => ({
    ...pick(row, MEMBER_COLUMNS),
    membership: row.user_id === null ? null : pick(row, MEMBERSHIP_COLUMNS),
  }));
}

/**
 * A post's comments, oldest first, each reply naming the comment it answers by its place in this
 * list (`reply_to`), not by id: ids are the site's own, and an import gives new ones.
 */
function threaded(comments: Json[]): Json[] {
  const place = new Map(comments.map((c, i) => [c.id, i]));
  return comments.map(({ id, post_id, reply_to_id, ...c }) => ({
    ...c,
    reply_to: reply_to_id === null ? null : (place.get(reply_to_id) ?? null),
  }));
}

const pick = (row: Json, columns: string[]) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));

/** The products with their own stock, and their variants with theirs (ids kept: orders name them). */
async function exportProducts(db: Db): Promise<Json[]> {
  const products: Json[] = await db('products as p')
    .orderBy('id')
    .select([...PRODUCT_COLUMNS, db.raw(`${STOCK_COLUMN_SQL} AS stock`)]);
  const variants: Json[] = await db('product_variants as v')
    .leftJoin('stock_levels as s', (j) => j.on('s.product_id', 'v.product_id').andOn('s.variant_id', 'v.id'))
    .orderBy(['v.product_id', 'v.position'])
    .select([...VARIANT_COLUMNS.map((c) => `v.${c}`), 'v.product_id', 's.stock']);
  const byProduct = Map.groupBy(variants, (v) => v.product_id);
  return products.map((product) => ({
    ...product,
    variants: (byProduct.get(product.id) ?? []).map(({ product_id, ...variant }) => variant),
  }));
}

/** Orders, products and posts keep their references only in an empty site. */
async function assertEmpty(trx: Knex.Transaction): Promise<void> {
  const { rows } = await trx.raw(
    'SELECT (SELECT count(*) FROM posts) + (SELECT count(*) FROM products) + (SELECT count(*) FROM order_events) AS n',
  );
  if (Number(rows[0].n) > 0)
    throw new ImportError(
      'A Penstand export is imported into an empty site: this one already has posts, products or orders. Nothing was imported.',
    );
}

export type PenstandImportCounts = {
  posts: number;
  comments: number;
  products: number;
  subscribers: number;
  members: number;
  orders: number;
  discounts: number;
};

/** Restores a Penstand export into an empty site in one transaction; the order projections are rebuilt after. */
export async function importPenstand(
  db: Db,
  document: PenstandExport,
  dryRun: boolean,
): Promise<PenstandImportCounts> {
  if (!READABLE_VERSIONS.includes(document.penstand_export) || !Array.isArray(document.posts))
    throw new ImportError(
      `This Penstand export has version ${String(document.penstand_export)}; this site reads version ${EXPORT_VERSION}. Nothing was imported.`,
    );
  const counts: PenstandImportCounts = {
    posts: 0,
    comments: 0,
    products: 0,
    subscribers: 0,
    members: 0,
    orders: 0,
    discounts: 0,
  };
  const work = async (trx: Knex.Transaction) => {
    await assertEmpty(trx);
    const imported: { id: number; content: string }[] = [];
    if (document.settings)
      await trx('blog_settings')
        .insert({
          id: 1,
          ...document.settings,
          social_links: JSON.stringify(document.settings.social_links ?? {}),
        })
        .onConflict('id')
        .merge();
    for (const tier of document.tiers ?? []) await trx('tiers').insert(pick(tier, TIER_COLUMNS));
    await trx.raw("SELECT setval('tiers_id_seq', GREATEST((SELECT max(id) FROM tiers), 1))");
    for (const post of document.posts) {
      const content = String(post.content ?? '');
      const [{ id }] = await trx('posts')
        .insert({
          ...pick(post, POST_COLUMNS),
          source_site: post.source_site ?? '',
          content_html: renderMarkdown(withoutPaywallLine(content)),
          ...previewColumns(content, (post.visibility as PostVisibility | undefined) ?? 'public'),
          author_name: post.author ?? null,
        })
        .returning('id');
      imported.push({ id, content: String(post.content ?? '') });
      counts.posts++;
      for (const revision of post.revisions ?? [])
        await trx('post_revisions').insert({
          ...pick(revision, REVISION_COLUMNS),
          settings: JSON.stringify(revision.settings ?? {}),
          post_id: id,
        });
      if (post.newsletter)
        await trx('newsletters').insert({ ...pick(post.newsletter, NEWSLETTER_COLUMNS), post_id: id });
      const row = (c: Json) => ({
        ...pick(c, COMMENT_COLUMNS),
        source_site: c.source_site ?? '',
        ...Object.fromEntries(COMMENT_FLAGS.map((flag) => [flag, c[flag] === true])),
        // Already public on the old site: its mails went from there, none goes again from here.
        ...(c.approved === true ? { published_notice_at: trx.fn.now(), reply_notice_at: trx.fn.now() } : {}),
        post_id: id,
      });
      if (post.comments.every((c) => typeof c.reply_to !== 'number')) {
        if (post.comments.length) await trx('comments').insert(post.comments.map(row));
      } else {
        // One at a time, in order: a reply's answered comment (earlier in the list) has its new id.
        const inserted: { id: number; parent_id: number | null }[] = [];
        for (const c of post.comments) {
          const answered = typeof c.reply_to === 'number' ? inserted[c.reply_to] : undefined;
          const thread = answered
            ? { parent_id: answered.parent_id ?? answered.id, reply_to_id: answered.id }
            : {};
          const [created] = await trx('comments')
            .insert({ ...row(c), ...thread })
            .returning(['id', 'parent_id']);
          inserted.push(created);
        }
      }
      counts.comments += post.comments.length;
      if (post.old_slugs.length)
        await trx('post_slug_history').insert(post.old_slugs.map((slug) => ({ slug, post_id: id })));
    }
    for (const product of document.products) {
      await trx('products').insert({
        ...pick(product, PRODUCT_COLUMNS),
        // An export from before galleries has only `image`: a gallery of that one image.
        images: JSON.stringify(
          Array.isArray(product.images) ? product.images : product.image ? [product.image] : [],
        ),
        options: JSON.stringify(product.options ?? []),
      });
      await setStock(trx, product.id as number, (product.stock as number | null | undefined) ?? null);
      // An export from before variants has none.
      for (const variant of (product.variants as Json[] | undefined) ?? []) {
        await trx('product_variants').insert({
          ...pick(variant, VARIANT_COLUMNS),
          options: JSON.stringify(variant.options),
          product_id: product.id,
        });
        await setStock(trx, product.id as number, variant.stock as number | null, variant.id as number);
      }
    }
    await trx.raw(
      "SELECT setval('product_variants_id_seq', GREATEST((SELECT max(id) FROM product_variants), 1))",
    );
    counts.products = document.products.length;
    // The products a post shows ([product:ID] markers), once the products are there.
    for (const post of imported) await syncProducts(trx, post.id, post.content);
    await trx.raw("SELECT setval('products_id_seq', GREATEST((SELECT max(id) FROM products), 1))");
    for (const subscriber of document.subscribers)
      await trx('newsletter_subscribers').insert({
        ...pick(subscriber, SUBSCRIBER_COLUMNS),
        token: randomBytes(24).toString('base64url'),
      });
    counts.subscribers = document.subscribers.length;
    // Members come back as accounts without passwords, as a member list's do; tiers kept their ids.
    for (const { membership, ...member } of document.members ?? []) {
      const account = await memberAccount(trx, {
        email: String(member.email),
        first_name: (member.first_name as string | null) ?? null,
        last_name: (member.last_name as string | null) ?? null,
        created_at: member.created_at as string | undefined,
      });
      if (membership && !account.admin)
        await trx('memberships')
          .insert({ ...pick(membership, MEMBERSHIP_COLUMNS), user_id: account.id })
          .onConflict('user_id')
          .ignore();
      counts.members++;
    }
    for (const order of document.orders) {
      await trx('order_events').insert(
        order.events.map((event) => ({
          order_id: order.id,
          version: event.version,
          type: event.type,
          // Accounts are not exported: an order's buyer is known by the email in its data.
          data: JSON.stringify(
            'userId' in (event.data as Json) ? { ...(event.data as Json), userId: null } : event.data,
          ),
          metadata: JSON.stringify(event.metadata ?? {}),
          created_at: event.created_at,
        })),
      );
    }
    counts.orders = document.orders.length;
    await trx.raw("SELECT setval('order_ids', GREATEST((SELECT max(order_id) FROM order_events), 1))");
    await restoreDocumentCounters(trx);
    for (const { uses, ...discount } of document.discounts ?? []) {
      await trx('discount_codes').insert(pick(discount, DISCOUNT_COLUMNS));
      for (const use of uses)
        await trx('discount_uses').insert({ ...pick(use, DISCOUNT_USE_COLUMNS), discount_id: discount.id });
    }
    counts.discounts = document.discounts?.length ?? 0;
    await trx.raw(
      "SELECT setval('discount_codes_id_seq', GREATEST((SELECT max(id) FROM discount_codes), 1))",
    );
  };
  if (dryRun) {
    const trx = await db.transaction();
    try {
      await work(trx);
    } finally {
      await trx.rollback();
    }
    return counts;
  }
  await db.transaction(work);
  if (counts.orders) await rebuildProjections(db);
  return counts;
}
