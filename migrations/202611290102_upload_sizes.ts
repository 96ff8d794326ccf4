import type { Knex } from 'knex';

/**
 * The width and height of each uploaded image, recorded when it is stored: a post's body gets
 * them (and its srcset) when rendered, so nothing shifts while the image loads.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE upload_sizes (
      file_name text PRIMARY KEY,
      width integer NOT NULL CHECK (width > 0),
      height integer NOT NULL CHECK (height > 0)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE upload_sizes;');
}
