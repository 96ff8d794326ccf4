import type { Db } from '../../src/db/knex.ts';
import { createProduct, updateProduct } from '../../src/shop/products.ts';

/** A bench product and, when it has one, the variant its shoppers buy. */
export type BenchProduct = { productId: number; variantId: number | null };

/**
 * A bench product found by name (made the first time) and given its stock again on every run:
 * its own, or with `variant` one option (Size: M) whose one variant holds the stock.
 */
export async function benchProduct(
  db: Db,
  name: string,
  stock: number | null,
  { variant = false, description = 'One product, many shoppers at once.' } = {},
): Promise<BenchProduct> {
  const fields = {
    status: 'active',
    price: 2_500,
    stock: variant ? null : stock,
    options: variant ? [{ name: 'Size', values: ['M'] }] : [],
    variants: variant ? [{ options: { Size: 'M' }, stock, sku: 'BENCH-M' }] : [],
  };
  const found = await db('products').where({ name }).first('id');
  const product = found
    ? await updateProduct(db, found.id, fields)
    : await createProduct(db, { ...fields, name, description, category: 'Books' });
  return { productId: product.id, variantId: product.variants[0]?.id ?? null };
}

/** A bench product's stock (its variant's when it has one), set and read; null when unlimited. */
export { setStock, stockOf } from '../../src/shop/stock.ts';

/** A SQL condition on `products` for an active product without options whose stock is unlimited. */
export const UNLIMITED_SQL = `status = 'active' AND options = '[]'::jsonb
  AND NOT EXISTS (SELECT 1 FROM stock_levels s WHERE s.product_id = products.id AND s.stock IS NOT NULL)`;
