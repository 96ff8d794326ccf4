import type { Knex } from 'knex';

/** The shop's shipping and returns notes, shown on every product page; empty shows none. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings ADD COLUMN shipping_note text, ADD COLUMN returns_note text;');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings DROP COLUMN shipping_note, DROP COLUMN returns_note;');
}
