import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Page views rolled up as they arrive: no row per view, no address, no user agent.
    -- Hours and days are UTC. visitors: distinct daily visitors first seen on the path that hour.
    CREATE TABLE analytics_hourly (
      hour timestamptz NOT NULL,
      path text NOT NULL,
      post_id integer REFERENCES posts(id) ON DELETE SET NULL,
      product_id integer REFERENCES products(id) ON DELETE SET NULL,
      views integer NOT NULL DEFAULT 0,
      visitors integer NOT NULL DEFAULT 0,
      PRIMARY KEY (hour, path)
    );
    CREATE INDEX analytics_hourly_post_idx ON analytics_hourly (post_id, hour) WHERE post_id IS NOT NULL;
    CREATE INDEX analytics_hourly_product_idx ON analytics_hourly (product_id, hour) WHERE product_id IS NOT NULL;
    -- The whole site per day: a visitor reading three pages is one visitor here.
    CREATE TABLE analytics_daily (
      day date PRIMARY KEY,
      views integer NOT NULL DEFAULT 0,
      visitors integer NOT NULL DEFAULT 0
    );
    -- source: a search engine or social site by name, another host as itself, 'internal', 'direct'.
    CREATE TABLE analytics_referrers (
      day date NOT NULL,
      source text NOT NULL,
      views integer NOT NULL DEFAULT 0,
      PRIMARY KEY (day, source)
    );
    CREATE TABLE analytics_devices (
      day date NOT NULL,
      device text NOT NULL CHECK (device IN ('mobile', 'tablet', 'desktop')),
      views integer NOT NULL DEFAULT 0,
      PRIMARY KEY (day, device)
    );
    -- Only from a proxy's country header (CF-IPCountry or ANALYTICS_COUNTRY_HEADER).
    CREATE TABLE analytics_countries (
      day date NOT NULL,
      country char(2) NOT NULL,
      views integer NOT NULL DEFAULT 0,
      PRIMARY KEY (day, country)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'DROP TABLE analytics_countries, analytics_devices, analytics_referrers, analytics_daily, analytics_hourly',
  );
}
