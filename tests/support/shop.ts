import type { Db } from '../../src/db/knex.ts';
import type { ProductCategory } from '../../src/shop/product-enums.ts';
import { setStock } from '../../src/shop/stock.ts';
import type { TestApp } from './app.ts';

export type ProductFixture = {
  name?: string;
  description?: string;
  price?: number;
  category?: ProductCategory;
  stock?: number | null;
  featured?: boolean;
  status?: 'active' | 'inactive';
  image?: string | null;
};

let counter = 0;

/** Inserts a product straight into the database. */
export async function createProductRow(
  db: Db,
  fields: ProductFixture = {},
): Promise<{ id: number; name: string }> {
  counter++;
  const [row] = await db('products')
    .insert({
      name: fields.name ?? `Product ${counter}`,
      description: fields.description ?? `Description of product ${counter}`,
      price: fields.price ?? 1000,
      category: fields.category ?? 'Books',
      featured: fields.featured ?? false,
      status: fields.status ?? 'active',
      image: fields.image ?? null,
    })
    .returning(['id', 'name']);
  await setStock(db, row.id, fields.stock === undefined ? 10 : fields.stock);
  return row;
}

/** Makes a product digital: a file row for it (the stored file itself is not needed to buy it). */
export async function createProductFileRow(db: Db, productId: number, name = 'Book'): Promise<void> {
  await db('product_files').insert({
    product_id: productId,
    name,
    file_name: `${name.toLowerCase().replaceAll(' ', '-')}.pdf`,
    storage_name: `${productId}`.padStart(32, 'f'),
    content_type: 'application/pdf',
    size_bytes: 1,
  });
}

export const validCheckout = {
  customerName: 'Ada Lovelace',
  customerEmail: 'ada@example.com',
  address: '12 Analytical Street',
  city: 'London',
  zipCode: 'SW1A 1AA',
  country: 'GB',
};

/** A guest API client: its session comes back in X-Session-Id on the first cart write. */
export class GuestClient {
  sid: string | null = null;
  readonly app: TestApp;
  constructor(app: TestApp) {
    this.app = app;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${this.app.url}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.sid ? { 'x-session-id': this.sid } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const sid = response.headers.get('x-session-id');
    if (sid) this.sid = sid;
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  }

  /** A quantity as a client may send it: a number, or any string (the API must refuse a bad one). */
  add(productId: number, quantity: number | string = 1) {
    return this.request('POST', '/api/cart?action=add', { productId, quantity });
  }

  checkout(details: Record<string, string> = validCheckout, key?: string) {
    return this.request('POST', '/api/orders', details, key ? { 'idempotency-key': key } : {});
  }
}
