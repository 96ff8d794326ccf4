import type { Knex } from 'knex';

/**
 * The tables the analytics report reads, how a changed row tells its UTC day and, for an update,
 * which of its columns the report reads (an order's status, shipping or expiry changes no sum).
 */
const SOURCES: [table: string, day: string, read?: string][] = [
  ['analytics_daily', 'r.day'],
  ['analytics_paths_daily', 'r.day'],
  ['analytics_referrers', 'r.day'],
  ['analytics_devices', 'r.day'],
  ['analytics_countries', 'r.day'],
  ['analytics_cart_adds', 'r.day'],
  [
    'orders',
    `(r.created_at AT TIME ZONE 'UTC')::date`,
    'created_at, paid_amount, refunded_amount, payment_status',
  ],
  ['order_items', `(SELECT (o.created_at AT TIME ZONE 'UTC')::date FROM orders o WHERE o.id = r.order_id)`],
  ['order_sources', `(SELECT (o.created_at AT TIME ZONE 'UTC')::date FROM orders o WHERE o.id = r.order_id)`],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- The analytics report keeps the sums of closed days (all but today, UTC) in memory. Any write
    -- to a closed day's source rows (a refund of an old order, a deleted post's rows, a view batch
    -- applied after midnight) bumps this number in its own transaction, and the report's statement
    -- reads it in the same snapshot as its data: a changed number, the kept sums are read again.
    CREATE TABLE analytics_closed_changes (
      id integer PRIMARY KEY CHECK (id = 1),
      n bigint NOT NULL
    );
    INSERT INTO analytics_closed_changes VALUES (1, 0);
    CREATE FUNCTION analytics_closed_end() RETURNS date LANGUAGE sql STABLE
      AS $$ SELECT (now() AT TIME ZONE 'UTC')::date - 1 $$;
  `);
  for (const [table, day, read] of SOURCES) {
    const inClosedDay = (rows: string) =>
      `EXISTS (SELECT 1 FROM ${rows} r WHERE ${day} <= analytics_closed_end())`;
    const columns = (alias: string) => read?.replaceAll(/(\w+)/g, `${alias}.$1`);
    const updated = read
      ? `EXISTS (SELECT 1 FROM new_rows r JOIN old_rows o USING (id)
           WHERE (${columns('r')}) IS DISTINCT FROM (${columns('o')})
             AND (${day} <= analytics_closed_end() OR ${day.replaceAll('r.', 'o.')} <= analytics_closed_end()))`
      : `${inClosedDay('new_rows')} OR ${inClosedDay('old_rows')}`;
    // Transition tables need one trigger per event: each branch reads only its event's.
    await knex.raw(`
      CREATE FUNCTION ${table}_closed_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        changed boolean := TG_OP = 'TRUNCATE';
      BEGIN
        IF TG_OP = 'INSERT' THEN
          changed := ${inClosedDay('new_rows')};
        ELSIF TG_OP = 'UPDATE' THEN
          changed := ${updated};
        ELSIF TG_OP = 'DELETE' THEN
          changed := ${inClosedDay('old_rows')};
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
