import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- One row per order holding a use of a code; an expired or cancelled unpaid order's row goes.
    CREATE TABLE discount_uses (
      -- No foreign key to orders: orders:rebuild truncates that projection, and the uses are
      -- counted in the checkout's transaction, not derived from the events.
      order_id integer PRIMARY KEY,
      discount_id integer NOT NULL REFERENCES discount_codes(id),
      email text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX discount_uses_email_idx ON discount_uses (discount_id, lower(email));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE discount_uses');
}
