import type { Knex } from 'knex';

/** Messages for the cart's owner, e.g. that a product in it was deleted; shown once, then cleared. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE carts ADD COLUMN notices jsonb NOT NULL DEFAULT '[]'::jsonb;`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE carts DROP COLUMN notices;');
}
