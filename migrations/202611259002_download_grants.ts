import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- A paid order's right to download one file of one of its digital lines.
    CREATE TABLE download_grants (
      id serial PRIMARY KEY,
      -- No foreign key to orders or order_items: orders:rebuild truncates those projections, and
      -- the grants (with their counts) are not derived from the events alone.
      order_id integer NOT NULL,
      order_item_id integer NOT NULL,
      product_file_id integer NOT NULL REFERENCES product_files(id) ON DELETE CASCADE,
      -- The random part of the link (/downloads/<id>.<token>), compared in constant time.
      token text NOT NULL,
      expires_at timestamptz NOT NULL,
      download_limit integer NOT NULL CHECK (download_limit > 0),
      downloads integer NOT NULL DEFAULT 0,
      -- Set by a full refund or a cancellation: the link answers 410 from then on.
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (order_item_id, product_file_id)
    );
    CREATE INDEX download_grants_order_idx ON download_grants (order_id, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE download_grants');
}
