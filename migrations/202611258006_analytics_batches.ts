import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The page view batches already added to the rollups: a job run again (a worker that died after
    -- its commit) adds nothing twice. Kept two days.
    CREATE TABLE analytics_batches (
      id uuid PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX analytics_batches_applied_idx ON analytics_batches (applied_at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE analytics_batches');
}
