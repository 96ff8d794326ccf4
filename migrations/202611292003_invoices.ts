import type { Knex } from 'knex';

/**
 * Numbered invoices and credit notes (issue 38): a counter row per series and year, taken in the
 * transaction of the payment or refund it numbers (so numbers have no gaps); the seller's details
 * the documents print; the order's invoice number as a projection of its payment event.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE document_counters (
      series text NOT NULL,
      year integer NOT NULL,
      last integer NOT NULL,
      PRIMARY KEY (series, year)
    );
    ALTER TABLE blog_settings
      ADD COLUMN seller_name text,
      ADD COLUMN seller_address text,
      ADD COLUMN seller_tax_id text;
    ALTER TABLE orders ADD COLUMN invoice_number text UNIQUE;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE orders DROP COLUMN invoice_number;
    ALTER TABLE blog_settings DROP COLUMN seller_name, DROP COLUMN seller_address, DROP COLUMN seller_tax_id;
    DROP TABLE document_counters;
  `);
}
