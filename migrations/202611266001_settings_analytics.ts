import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- 'Analytics' in Settings: off, no referrer, device, country, visitor, funnel or attribution is
    -- collected (the posts' public view counts go on). On for an existing site, which collected already.
    ALTER TABLE blog_settings ADD COLUMN analytics boolean NOT NULL DEFAULT true;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE blog_settings DROP COLUMN analytics');
}
