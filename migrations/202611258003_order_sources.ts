import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The post that brought an order's buyer (the last post page of the session within 24 hours).
    -- No foreign key to orders: the orders projection is truncated and rebuilt from its events.
    CREATE TABLE order_sources (
      order_id integer PRIMARY KEY,
      post_id integer REFERENCES posts(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX order_sources_post_idx ON order_sources (post_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE order_sources');
}
