import type { Knex } from 'knex';

/**
 * Why a comment was held as suspected spam (e.g. it filled the form's hidden field), shown to
 * the moderator; NULL for an ordinary comment. Such a comment is stored, never dropped.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE comments ADD COLUMN held_reason text;');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE comments DROP COLUMN held_reason;');
}
