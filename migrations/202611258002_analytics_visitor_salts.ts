import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- One random salt per UTC day; a visitor is a hash of (salt, address, user agent). Both tables
    -- keep only the current day: once a day's salt is deleted its hashes cannot be linked to
    -- anyone, nor to the next day's.
    CREATE TABLE analytics_salts (
      day date PRIMARY KEY,
      salt text NOT NULL
    );
    -- Which visitors were already counted today, per path ('' for the whole site).
    CREATE TABLE analytics_seen (
      day date NOT NULL,
      visitor text NOT NULL,
      path text NOT NULL,
      PRIMARY KEY (day, visitor, path)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE analytics_seen, analytics_salts');
}
