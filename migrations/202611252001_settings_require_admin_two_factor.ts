import type { Knex } from 'knex';

/** 'Require two-factor for admins': an admin without a second factor sets one up before the admin opens. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'ALTER TABLE blog_settings ADD COLUMN require_admin_two_factor boolean NOT NULL DEFAULT false;',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings DROP COLUMN require_admin_two_factor;');
}
