import type { Knex } from 'knex';

/**
 * An outbox row is deleted once its job is in the queue, not marked relayed: the mark was a new
 * row version with a new index entry for every job (two per order), and the relayed rows were
 * kept for good, read by nothing. The queue keeps each job's id for an hour, so a row relayed
 * twice (a crash between the add and the delete) still adds its job once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DELETE FROM outbox WHERE relayed_at IS NOT NULL;
    ALTER TABLE outbox DROP COLUMN relayed_at;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE outbox ADD COLUMN relayed_at timestamptz;
    CREATE INDEX outbox_pending_idx ON outbox (id) WHERE relayed_at IS NULL;
  `);
}
