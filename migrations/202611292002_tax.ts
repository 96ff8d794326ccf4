import type { Knex } from 'knex';

/**
 * Tax by country (issue 38): the rates, whether prices are entered with tax, and what each order
 * and line charged and each refund gave back (projections of the order's events).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE tax_rates (
      id serial PRIMARY KEY,
      country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
      category text,
      -- Hundredths of a percent (19% = 1900): exact for rates such as 7.7%.
      rate_hundredths integer NOT NULL CHECK (rate_hundredths BETWEEN 0 AND 10000),
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX tax_rates_country_category ON tax_rates (country, coalesce(category, ''));
    ALTER TABLE blog_settings ADD COLUMN prices_include_tax boolean NOT NULL DEFAULT false;
    ALTER TABLE orders
      ADD COLUMN tax_amount integer NOT NULL DEFAULT 0,
      ADD COLUMN tax_included boolean NOT NULL DEFAULT false,
      ADD COLUMN refunded_tax integer NOT NULL DEFAULT 0;
    ALTER TABLE order_items ADD COLUMN tax_amount integer NOT NULL DEFAULT 0;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE order_items DROP COLUMN tax_amount;
    ALTER TABLE orders DROP COLUMN tax_amount, DROP COLUMN tax_included, DROP COLUMN refunded_tax;
    ALTER TABLE blog_settings DROP COLUMN prices_include_tax;
    DROP TABLE tax_rates;
  `);
}
