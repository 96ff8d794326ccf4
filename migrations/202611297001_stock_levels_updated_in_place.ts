import type { Knex } from 'knex';

/**
 * A stock row's decrement written in place (a HOT update): an index on `stock` made every
 * decrement a new row version with new entries in both indexes, so a drop's one limited row left
 * thousands of dead versions for each later decrement to step over. The low-stock count reads the
 * table (a row per product or variant) without it, and the rows keep room on their pages for the
 * versions a burst of decrements writes before the page is pruned.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX stock_levels_low_idx;
    ALTER TABLE stock_levels SET (fillfactor = 50);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE stock_levels RESET (fillfactor);
    CREATE INDEX stock_levels_low_idx ON stock_levels (stock) WHERE stock IS NOT NULL AND stock <= 10;
  `);
}
