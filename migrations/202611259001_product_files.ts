import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- A downloadable product's files, kept in the private storage area. A product with files is
    -- digital: it needs no shipping address.
    CREATE TABLE product_files (
      id serial PRIMARY KEY,
      product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      -- What the buyer sees (the download link's label).
      name text NOT NULL,
      -- The uploaded file's own name, given again in the download's Content-Disposition.
      file_name text NOT NULL,
      -- The random name in the private storage area.
      storage_name text NOT NULL UNIQUE,
      content_type text NOT NULL,
      size_bytes bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX product_files_product_idx ON product_files (product_id, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE product_files');
}
