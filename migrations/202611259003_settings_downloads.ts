import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- How long a download link lasts and how many downloads of each file it allows. Null: the
    -- defaults (30 days, 5 downloads).
    ALTER TABLE blog_settings
      ADD COLUMN download_days integer CHECK (download_days BETWEEN 1 AND 3650),
      ADD COLUMN download_limit integer CHECK (download_limit BETWEEN 1 AND 1000);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings DROP COLUMN download_days, DROP COLUMN download_limit');
}
