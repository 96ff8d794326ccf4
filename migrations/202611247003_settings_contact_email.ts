import type { Knex } from 'knex';

/** The address behind the About page's 'Get In Touch' (unset: the button is not shown). */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings ADD COLUMN contact_email text;');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings DROP COLUMN contact_email;');
}
