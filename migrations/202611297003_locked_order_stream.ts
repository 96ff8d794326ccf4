import type { Knex } from 'knex';

/**
 * An order's stream read under the advisory lock of one of its mails, in one round trip: the
 * function takes the lock, then reads. Its read is a statement of its own in a VOLATILE function,
 * so under READ COMMITTED it sees what a concurrent sender committed while this one waited for
 * the lock (a single statement would read with the snapshot it started with, before the wait).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION locked_order_stream(lock_name text, stream_order_id integer)
    RETURNS SETOF order_events LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext(lock_name), stream_order_id);
      RETURN QUERY SELECT * FROM order_events WHERE order_id = stream_order_id ORDER BY version;
    END;
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION locked_order_stream(text, integer)');
}
