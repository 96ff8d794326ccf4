import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE orders DROP CONSTRAINT orders_status_check;
    ALTER TABLE orders ADD CONSTRAINT orders_status_check
      CHECK (status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled', 'expired'));
    ALTER TABLE orders DROP CONSTRAINT orders_payment_status_check;
    ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
      CHECK (payment_status IN ('unpaid', 'paid', 'partially_refunded', 'refunded'));
    ALTER TABLE orders
      ADD COLUMN payment_method text,
      ADD COLUMN payment_reference text,
      ADD COLUMN paid_amount integer NOT NULL DEFAULT 0,
      ADD COLUMN refunded_amount integer NOT NULL DEFAULT 0,
      ADD COLUMN hold_until timestamptz,
      ADD COLUMN checkout_session_id text,
      ADD COLUMN refund_needed boolean NOT NULL DEFAULT false;
    CREATE INDEX orders_payment_status_idx ON orders (payment_status, created_at DESC);
    -- The expiry sweep: unpaid orders past their hold.
    CREATE INDEX orders_hold_idx ON orders (hold_until) WHERE status = 'pending' AND payment_status = 'unpaid';
    -- charge.refunded names the payment intent, not the order.
    CREATE INDEX orders_payment_reference_idx ON orders (payment_reference) WHERE payment_reference IS NOT NULL;

    -- Each Stripe event is processed once: its id is stored in the transaction that applies it.
    CREATE TABLE stripe_events (
      id text PRIMARY KEY,
      type text NOT NULL,
      order_id integer,
      received_at timestamptz NOT NULL DEFAULT now()
    );

    ALTER TABLE blog_settings
      ADD COLUMN payment_instructions text NOT NULL DEFAULT '',
      -- NULL: the payment mode's default (60 minutes for cards, 3 days for manual payment).
      ADD COLUMN payment_hold_minutes integer CHECK (payment_hold_minutes BETWEEN 30 AND 43200);

    -- A job that must not run before a time (an unpaid order's expiry), relayed with its delay.
    ALTER TABLE outbox ADD COLUMN run_at timestamptz;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE outbox DROP COLUMN run_at;
    ALTER TABLE blog_settings DROP COLUMN payment_instructions, DROP COLUMN payment_hold_minutes;
    DROP TABLE stripe_events;
    ALTER TABLE orders
      DROP COLUMN payment_method, DROP COLUMN payment_reference, DROP COLUMN paid_amount,
      DROP COLUMN refunded_amount, DROP COLUMN hold_until, DROP COLUMN checkout_session_id,
      DROP COLUMN refund_needed;
    ALTER TABLE orders DROP CONSTRAINT orders_status_check;
    ALTER TABLE orders ADD CONSTRAINT orders_status_check
      CHECK (status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled'));
    ALTER TABLE orders DROP CONSTRAINT orders_payment_status_check;
    ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
      CHECK (payment_status IN ('unpaid', 'paid', 'refunded'));
  `);
}
