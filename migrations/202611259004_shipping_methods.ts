import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The ways a physical order ships (Settings → Shipping). Standard is free until the writer
    -- prices it, so totals stay what they were before shipping methods existed.
    CREATE TABLE shipping_methods (
      id serial PRIMARY KEY,
      name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
      price integer NOT NULL CHECK (price >= 0),
      -- Free when the order's items come to at least this much (cents); null: never free.
      free_over integer CHECK (free_over >= 0),
      -- Countries it delivers to (as customers type them, compared without case); null: all.
      countries text[],
      position integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    INSERT INTO shipping_methods (name, price, position) VALUES ('Standard', 0, 0), ('Express', 1500, 1);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE shipping_methods');
}
