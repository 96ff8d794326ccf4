import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Discount codes (Admin → Discounts). Amounts in cents; value is a percentage for 'percent'.
    CREATE TABLE discount_codes (
      id serial PRIMARY KEY,
      code text NOT NULL CHECK (length(code) BETWEEN 1 AND 50),
      type text NOT NULL CHECK (type IN ('percent', 'fixed')),
      value integer NOT NULL CHECK (value > 0 AND (type = 'fixed' OR value <= 100)),
      -- Null: no limit.
      usage_limit integer CHECK (usage_limit > 0),
      per_email_limit integer CHECK (per_email_limit > 0),
      starts_at timestamptz,
      ends_at timestamptz CHECK (ends_at > starts_at),
      min_subtotal integer NOT NULL DEFAULT 0 CHECK (min_subtotal >= 0),
      -- Null: every product; else only these products and products of these categories.
      product_ids integer[],
      categories text[],
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- Customers type codes in any case.
    CREATE UNIQUE INDEX discount_codes_code_key ON discount_codes (lower(code));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE discount_codes');
}
