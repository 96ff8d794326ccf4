import type { Knex } from 'knex';

/**
 * A product's gallery, in order; its first image is the product's image (cards, cart, feeds), so
 * the existing ones become one-image galleries.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE products ADD COLUMN images jsonb NOT NULL DEFAULT '[]'::jsonb;
    UPDATE products SET images = jsonb_build_array(image) WHERE image IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE products DROP COLUMN images;');
}
