import type { Knex } from 'knex';

/** Stripe Tax (issue 38): the writer's switch to let Stripe calculate the tax of card payments. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings ADD COLUMN stripe_tax boolean NOT NULL DEFAULT false');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings DROP COLUMN stripe_tax');
}
