import type { Knex } from 'knex';

/** The tables the analytics report reads, and how a changed row tells its UTC day. */
const SOURCES: [table: string, day: string][] = [
  ['analytics_daily', 'r.day'],
  ['analytics_paths_daily', 'r.day'],
  ['analytics_referrers', 'r.day'],
  ['analytics_devices', 'r.day'],
  ['analytics_countries', 'r.day'],
  ['analytics_cart_adds', 'r.day'],
  ['orders', `(r.created_at AT TIME ZONE 'UTC')::date`],
  ['order_items', `(SELECT (o.created_at AT TIME ZONE 'UTC')::date FROM orders o WHERE o.id = r.order_id)`],
  ['order_sources', `(SELECT (o.created_at AT TIME ZONE 'UTC')::date FROM orders o WHERE o.id = r.order_id)`],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The analytics report keeps the sums of closed days (all but the last two UTC days, which late
    -- view batches may still reach) in memory. Any write to a closed day's source rows (a refund of
    -- an old order, a deleted post's rows, a backfill) bumps this number in its own transaction, and
    -- the report's statement reads it in the same snapshot as its data: a changed number, the kept
    -- sums are computed again.
    CREATE TABLE analytics_closed_changes (
      id integer PRIMARY KEY CHECK (id = 1),
      n bigint NOT NULL
    );
    INSERT INTO analytics_closed_changes VALUES (1, 0);
    CREATE FUNCTION analytics_closed_end() RETURNS date LANGUAGE sql STABLE
      AS $$ SELECT (now() AT TIME ZONE 'UTC')::date - 2 $$;
  `);
  for (const [table, day] of SOURCES) {
    // Transition tables need one trigger per event: the function reads only the ones it has.
    await knex.raw(`
      CREATE FUNCTION ${table}_closed_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed boolean := TG_OP = 'TRUNCATE';
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          changed := EXISTS (SELECT 1 FROM new_rows r WHERE ${day} <= analytics_closed_end());
        END IF;
        IF NOT changed AND TG_OP IN ('UPDATE', 'DELETE') THEN
          changed := EXISTS (SELECT 1 FROM old_rows r WHERE ${day} <= analytics_closed_end());
        END IF;
        IF changed THEN
          UPDATE analytics_closed_changes SET n = n + 1;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER ${table}_closed_insert AFTER INSERT ON ${table}
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_closed_changed();
      CREATE TRIGGER ${table}_closed_update AFTER UPDATE ON ${table}
        REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION ${table}_closed_changed();
      CREATE TRIGGER ${table}_closed_delete AFTER DELETE ON ${table}
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${table}_closed_changed();
      CREATE TRIGGER ${table}_closed_truncate AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION ${table}_closed_changed();
    `);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of SOURCES) {
    await knex.raw(`DROP FUNCTION ${table}_closed_changed() CASCADE`);
  }
  await knex.raw('DROP FUNCTION analytics_closed_end(); DROP TABLE analytics_closed_changes');
}
