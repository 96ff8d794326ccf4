import type { Knex } from 'knex';

/**
 * A membership event keeps the billing interval it set, so the analytics can tell what each paying
 * member was worth a month on any past day (a yearly price counts as a twelfth). Earlier events
 * take their membership's interval, the best that is known of them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE membership_events ADD COLUMN interval text CHECK (interval IN ('month', 'year'));
    UPDATE membership_events e SET interval = m.interval
      FROM memberships m WHERE m.user_id = e.user_id AND e.status IN ('paid', 'past_due');
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE membership_events DROP COLUMN interval');
}
