import type { Knex } from 'knex';

/** The home page's lead, the newest featured post, found without walking every published post. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX posts_featured_idx ON posts (published_at DESC, id DESC) WHERE featured AND status = 'published';",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX posts_featured_idx;');
}
