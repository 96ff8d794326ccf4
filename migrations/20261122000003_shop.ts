import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE products (
      id serial PRIMARY KEY,
      name text NOT NULL,
      description text NOT NULL,
      price integer NOT NULL CHECK (price >= 0),
      image text,
      category text NOT NULL CHECK (category IN ('Digital', 'Physical', 'Courses', 'Books', 'Merchandise')),
      stock integer CHECK (stock IS NULL OR stock >= 0),
      featured boolean NOT NULL DEFAULT false,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(name, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(description, '')), 'B')
      ) STORED
    );
    CREATE INDEX products_active_created_idx ON products (created_at DESC, id DESC) WHERE status = 'active';
    CREATE INDEX products_category_idx ON products (category, created_at DESC, id DESC) WHERE status = 'active';
    CREATE INDEX products_featured_idx ON products (created_at DESC) WHERE featured AND status = 'active';
    CREATE INDEX products_low_stock_idx ON products (stock) WHERE stock IS NOT NULL AND stock <= 10;
    CREATE INDEX products_search_idx ON products USING gin (search);

    CREATE TABLE carts (
      id serial PRIMARY KEY,
      user_id integer UNIQUE REFERENCES users(id) ON DELETE CASCADE,
      session_id text UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (user_id IS NOT NULL OR session_id IS NOT NULL)
    );

    CREATE TABLE cart_items (
      id serial PRIMARY KEY,
      cart_id integer NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
      product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      quantity integer NOT NULL DEFAULT 1 CHECK (quantity >= 1),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (cart_id, product_id)
    );
    CREATE INDEX cart_items_product_idx ON cart_items (product_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE cart_items, carts, products;');
}
