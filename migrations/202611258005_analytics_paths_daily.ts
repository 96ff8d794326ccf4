import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The hourly rollup summed per day, written by the same job: a range of months reads a row per
    -- path and day instead of 24.
    CREATE TABLE analytics_paths_daily (
      day date NOT NULL,
      path text NOT NULL,
      post_id integer REFERENCES posts(id) ON DELETE SET NULL,
      product_id integer REFERENCES products(id) ON DELETE SET NULL,
      views integer NOT NULL DEFAULT 0,
      visitors integer NOT NULL DEFAULT 0,
      PRIMARY KEY (day, path)
    );
    CREATE INDEX analytics_paths_daily_post_idx ON analytics_paths_daily (day, post_id) INCLUDE (views)
      WHERE post_id IS NOT NULL;
    CREATE INDEX analytics_paths_daily_product_idx ON analytics_paths_daily (day, product_id) INCLUDE (views)
      WHERE product_id IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE analytics_paths_daily');
}
