import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Db } from '../db/knex.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { chooseOption, noLongerAvailable, SHOP_MESSAGES } from './messages.ts';
import { formatPrice } from './price.ts';
import { stockLabel } from './product-admin-messages.ts';
import { PRODUCT_CATEGORIES, type ProductCategory, type ProductStatus } from './product-enums.ts';
import { type ProductData, productSchema, productUpdateSchema, type VariantData } from './product-schema.ts';
import { dropVariantStock, STOCK_COLUMN_SQL, setStock } from './stock.ts';
import { findVariant, type ProductOption, variantLabel } from './variants.ts';

/** One combination of a product's options, with its own stock (null: unlimited), SKU, price and image. */
export type Variant = {
  id: number;
  options: Record<string, string>;
  /** 'Size: M, Colour: Blue': what the cart, the order and the mails show. */
  label: string;
  stock: number | null;
  sku: string;
  /** Its own price in cents; null when it sells at the product's. */
  price: number | null;
  image: string | null;
};

export type Product = {
  id: number;
  name: string;
  description: string;
  price: number;
  /** The first of `images`, or null: what cards, the cart and feeds show. */
  image: string | null;
  /** The product page's gallery, in order. */
  images: string[];
  category: ProductCategory;
  /** A product with variants: their total, null when one of them is unlimited. */
  stock: number | null;
  featured: boolean;
  status: ProductStatus;
  options: ProductOption[];
  variants: Variant[];
  createdAt: string;
  updatedAt: string;
};

export type ProductListQuery = {
  page?: number;
  limit?: number;
  category?: string | null;
  search?: string | null;
  /** 'active' for the public shop; 'all' (admin) lists both. */
  status?: ProductStatus | 'all' | null;
  featured?: boolean;
};

export type Pagination = { page: number; limit: number; total: number; pages: number };

const COLUMNS = [
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

/** COLUMNS with the product's own stock, for a query on `products as p`. */
function columns(db: Db | Knex.Transaction) {
  return [...COLUMNS.map((c) => `p.${c}`), db.raw(`${STOCK_COLUMN_SQL} AS stock`)];
}

/** Newest first, the id breaking ties: the shop's order, and its category index's. */
const NEWEST_FIRST: { column: string; order: 'desc' }[] = [
  { column: 'created_at', order: 'desc' },
  { column: 'id', order: 'desc' },
];

type ProductRow = {
  id: number;
  name: string;
  description: string;
  price: number;
  image: string | null;
  images: string[];
  category: ProductCategory;
  stock: number | null;
  featured: boolean;
  status: ProductStatus;
  options: ProductOption[];
  created_at: Date;
  updated_at: Date;
};

/** A variant as its row reads: the variant and the product it belongs to. */
type VariantRow = Variant & { product_id: number };

/** The presenter: the only shape a product leaves the service in. */
export function presentProduct(row: ProductRow, variantRows: VariantRow[] = []): Product {
  const variants = variantRows.map(
    (v): Variant => ({
      id: v.id,
      options: v.options,
      label: v.label,
      stock: v.stock,
      sku: v.sku,
      price: v.price,
      image: v.image,
    }),
  );
  const stock =
    variants.length === 0
      ? row.stock
      : variants.some((v) => v.stock === null)
        ? null
        : variants.reduce((n, v) => n + (v.stock ?? 0), 0);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price,
    image: row.image,
    // A row written with only `image` (the seed, an import) is a gallery of that one image.
    images: row.images.length > 0 ? row.images : row.image ? [row.image] : [],
    category: row.category,
    stock,
    featured: row.featured,
    status: row.status,
    options: row.options,
    variants,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Products with their variants (one query for all of them), in the rows' order. */
async function presentRows(db: Db | Knex.Transaction, rows: ProductRow[]): Promise<Product[]> {
  const withOptions = rows.filter((r) => r.options.length > 0).map((r) => r.id);
  const variants: VariantRow[] =
    withOptions.length === 0
      ? []
      : await db('product_variants as v')
          .leftJoin('stock_levels as s', (j) =>
            j.on('s.product_id', 'v.product_id').andOn('s.variant_id', 'v.id'),
          )
          .whereIn('v.product_id', withOptions)
          .orderBy(['v.product_id', 'v.position'])
          .select('v.id', 'v.product_id', 'v.options', 'v.label', 's.stock', 'v.sku', 'v.price', 'v.image');
  return rows.map((row) =>
    presentProduct(
      row,
      variants.filter((v) => v.product_id === row.id),
    ),
  );
}

export function isCategory(value: unknown): value is ProductCategory {
  return typeof value === 'string' && (PRODUCT_CATEGORIES as readonly string[]).includes(value);
}

/** Ids come from URLs: anything but a positive integer is "no such product". */
export function parseProductId(value: unknown): number | null {
  const text = String(value ?? '');
  if (!/^\d{1,9}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}

export async function listProducts(
  db: Db,
  query: ProductListQuery,
): Promise<{ products: Product[]; pagination: Pagination }> {
  const limit = Math.min(Math.max(Math.trunc(query.limit ?? 12), 1), 100);
  const page = Math.max(Math.trunc(query.page ?? 1), 1);
  const base = db('products as p');
  const status = query.status ?? 'active';
  if (status !== 'all') base.where('status', status);
  if (isCategory(query.category)) base.where('category', query.category);
  if (query.featured) base.where('featured', true);
  const search = query.search?.trim();
  if (search) {
    // Full-text on name and description, plus a substring match so partial words find something.
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) =>
      w
        .whereRaw("search @@ websearch_to_tsquery('english', ?)", [search])
        .orWhereILike('name', like)
        .orWhereILike('description', like),
    );
  }
  // A plain status/category listing is counted by the counts table (triggers keep it, no scan);
  // a search or the featured filter counts its matches.
  const countQuery =
    search || query.featured
      ? base.clone().count<{ count: number }[]>({ count: '*' })
      : db('product_counts')
          .sum({ count: 'n' })
          .modify((q) => {
            if (status !== 'all') q.where({ status });
            if (isCategory(query.category)) q.where({ category: query.category });
          });
  const [[{ count }], rows] = await Promise.all([
    countQuery as unknown as Promise<{ count: number | string | null }[]>,
    base
      .clone()
      .select(columns(db))
      .orderBy(NEWEST_FIRST)
      .limit(limit)
      .offset((page - 1) * limit) as Promise<ProductRow[]>,
  ]);
  const total = Number(count ?? 0);
  return {
    products: await presentRows(db, rows),
    pagination: { page, limit, total, pages: Math.ceil(total / limit) },
  };
}

export async function listFeaturedProducts(db: Db, limit = 6): Promise<Product[]> {
  // The shop's order, without the shop's count: the home page shows no total.
  const rows: ProductRow[] = await db('products as p')
    .where({ status: 'active', featured: true })
    .orderBy(NEWEST_FIRST)
    .limit(limit)
    .select(columns(db));
  return presentRows(db, rows);
}

/** Up to 4 other active products of a product's category, newest first (the category index). */
export async function relatedProducts(
  db: Db,
  product: Pick<Product, 'id' | 'category'>,
  limit = 4,
): Promise<Product[]> {
  const rows: ProductRow[] = await db('products as p')
    .where({ status: 'active', category: product.category })
    .whereNot('id', product.id)
    .orderBy(NEWEST_FIRST)
    .limit(limit)
    .select(columns(db));
  return presentRows(db, rows);
}

/** Any product by id, active or not (the public page checks status itself). */
export async function getProduct(db: Db | Knex.Transaction, id: number): Promise<Product | null> {
  const row: ProductRow | undefined = await db('products as p').where({ id }).first(columns(db));
  return row ? (await presentRows(db, [row]))[0] : null;
}

/** The active products among these ids, by id: what a post's product cards show. */
export async function activeProductsById(db: Db, ids: number[]): Promise<Map<number, Product>> {
  const products = new Map<number, Product>();
  for (const product of await Promise.all(ids.map((id) => getProduct(db, id))))
    if (product?.status === 'active') products.set(product.id, product);
  return products;
}

/** The published posts that show a product with a [product:ID] marker, newest first. */
export async function postsFeaturing(db: Db, productId: number): Promise<{ title: string; slug: string }[]> {
  return db('post_products as pp')
    .join('posts as p', 'p.id', 'pp.post_id')
    .where({ 'pp.product_id': productId, 'p.status': 'published' })
    .orderBy('p.published_at', 'desc')
    .limit(20)
    .select('p.title', 'p.slug');
}

/** The editor's product picker and its product cards: every product, active ones first, with its price and stock. */
export async function productChoices(
  db: Db,
  currency: string,
): Promise<{ id: number; name: string; active: boolean; price: string; stock: string }[]> {
  // A product with variants: the sum of theirs, unlimited when any is.
  const rows = await db('products as p')
    .select(
      'p.id',
      'p.name',
      'p.status',
      'p.price',
      db.raw(
        '(SELECT CASE WHEN bool_or(s.stock IS NULL) THEN NULL ELSE sum(s.stock)::int END FROM stock_levels s WHERE s.product_id = p.id) AS stock',
      ),
    )
    .orderByRaw("p.status = 'active' DESC, p.name")
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    active: r.status === 'active',
    price: formatPrice(r.price, currency),
    stock: stockLabel(r.stock),
  }));
}

/** A product a visitor may see and buy. */
export async function getPublicProduct(db: Db, id: number): Promise<Product | null> {
  const product = await getProduct(db, id);
  return product && product.status === 'active' ? product : null;
}

/**
 * The variant a product page's form chose, by its options' values: null for a product without
 * options; Invalid ('Choose a size') when an option is left unchosen, NotFound for a combination
 * the product does not sell.
 */
export async function variantChosen(
  db: Db,
  productId: number,
  chosen: Record<string, string>,
): Promise<number | null> {
  const product = await getPublicProduct(db, productId);
  if (!product) throw new NotFound(SHOP_MESSAGES.productNotFound);
  if (product.options.length === 0) return null;
  const unchosen = product.options.find((o) => !chosen[o.name]);
  if (unchosen) throw new Invalid(chooseOption(unchosen.name));
  const variant = findVariant(product.options, product.variants, chosen);
  if (!variant) throw new NotFound(SHOP_MESSAGES.variantNotFound);
  return variant.id;
}

/** The columns for an insert (`update` false) or an update: only an update has a gallery to keep. */
function toRow(db: Db, data: Partial<ProductData>, update: boolean): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const key of ['name', 'description', 'category', 'price', 'status', 'featured'] as const) {
    if (data[key] !== undefined) row[key] = data[key];
  }
  if (data.options !== undefined || data.variants !== undefined)
    row.options = JSON.stringify(data.options ?? []);
  // `image` is always the gallery's first image. A client that knows only `image` (it predates
  // the gallery) replaces that first image and keeps the rest.
  if (data.images !== undefined) {
    row.images = JSON.stringify(data.images);
    row.image = data.images[0] ?? null;
  } else if (data.image !== undefined) {
    row.image = data.image;
    if (data.image === null) row.images = db.raw("'[]'::jsonb");
    else if (update)
      row.images = db.raw("jsonb_build_array(?::text) || (coalesce(images, '[]'::jsonb) - 0)", [data.image]);
    else row.images = JSON.stringify([data.image]);
  }
  return row;
}

/** Invalid input is a 400 with the schema's messages, so callers can show them as they are. */
function parseOr400<T>(
  schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: z.ZodError } },
  input: unknown,
): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new Invalid(
    parsed.error.issues
      .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
      .join('; '),
  );
}

export async function createProduct(db: Db, input: unknown): Promise<Product> {
  const data = parseOr400(productSchema, input);
  const id = await db.transaction(async (trx) => {
    const [row] = await trx('products')
      .insert(toRow(db, data, false))
      .returning('id');
    await setStock(trx, row.id, data.stock);
    await writeVariants(trx, row.id, data.options, data.variants);
    return row.id as number;
  });
  return (await getProduct(db, id)) as Product;
}

export async function updateProduct(db: Db, id: number, input: unknown): Promise<Product> {
  const data = parseOr400(productUpdateSchema, input);
  await db.transaction(async (trx) => {
    const [row] = await trx('products')
      .where({ id })
      .update({ ...toRow(db, data, true), updated_at: db.fn.now() })
      .returning('id');
    if (!row) throw new NotFound(SHOP_MESSAGES.productNotFound);
    if (data.stock !== undefined) await setStock(trx, id, data.stock);
    // Judged together by the schema: one sent alone stands with none of the other.
    if (data.options !== undefined || data.variants !== undefined)
      await writeVariants(trx, id, data.options ?? [], data.variants ?? []);
  });
  return (await getProduct(db, id)) as Product;
}

/**
 * A product's variants as sent, replacing the ones it had. A variant of the same combination keeps
 * its id (carts hold it); the others go, with their cart lines and stock rows.
 */
async function writeVariants(
  trx: Knex.Transaction,
  productId: number,
  options: ProductOption[],
  variants: VariantData[],
): Promise<void> {
  const existing: { id: number; label: string }[] = await trx('product_variants')
    .where({ product_id: productId })
    .forUpdate()
    .select('id', 'label');
  const idOf = new Map(existing.map((v) => [v.label, v.id]));
  // Positions move out of the way first, so the unique (product, position) holds throughout.
  await trx('product_variants')
    .where({ product_id: productId })
    .update({ position: trx.raw('-1 - position') });
  const kept: number[] = [];
  for (const [position, variant] of variants.entries()) {
    const label = variantLabel(options, variant.options);
    const row = {
      product_id: productId,
      position,
      options: JSON.stringify(variant.options),
      label,
      sku: variant.sku,
      price: variant.price,
      image: variant.image,
    };
    let id = idOf.get(label);
    if (id === undefined) [{ id }] = await trx('product_variants').insert(row).returning('id');
    else await trx('product_variants').where({ id }).update(row);
    kept.push(id as number);
    await setStock(trx, productId, variant.stock, id);
  }
  await trx('product_variants').where({ product_id: productId }).whereNotIn('id', kept).delete();
  await dropVariantStock(trx, productId, kept);
}

/** Deleting keeps past orders whole (their lines carry name and price); cart lines go with it. */
export async function deleteProduct(db: Db, id: number): Promise<void> {
  await db.transaction(async (trx) => {
    const product = await trx('products').where({ id }).forUpdate().first('name');
    if (!product) throw new NotFound(SHOP_MESSAGES.productNotFound);
    // The cascade removes the cart lines silently; leave their owners a note.
    await trx.raw(
      `UPDATE carts SET notices = notices || jsonb_build_array(?::text)
       WHERE id IN (SELECT cart_id FROM cart_items WHERE product_id = ?)`,
      [noLongerAvailable(product.name), id],
    );
    await trx('products').where({ id }).delete();
  });
}
