import type { Knex } from 'knex';

/**
 * posts.search becomes a stripped vector (lexemes only: search lists newest first, so positions and
 * weights are never used) kept by a trigger instead of a generated column. Stripped, it is small
 * enough to stay in the row, so testing it on the newest posts one by one is cheap; and a bulk load
 * (npm run bench:data, with triggers off) can supply the vector of a body it computed once.
 */
export async function up(knex: Knex): Promise<void> {
  // Rewrites every post (or counts every row) of a large site: no statement time limit here.
  await knex.raw('SET LOCAL statement_timeout = 0');
  await knex.raw(`
    ALTER TABLE posts ALTER COLUMN search DROP EXPRESSION;
    CREATE FUNCTION posts_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.search := strip(to_tsvector('english',
        coalesce(NEW.title, '') || ' ' || coalesce(NEW.excerpt, '') || ' ' || coalesce(NEW.content, '')));
      RETURN NEW;
    END $$;
    CREATE TRIGGER posts_search BEFORE INSERT OR UPDATE OF title, excerpt, content ON posts
      FOR EACH ROW EXECUTE FUNCTION posts_search_vector();
    UPDATE posts SET search = strip(search);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER posts_search ON posts;
    DROP FUNCTION posts_search_vector();
    DROP INDEX posts_search_idx;
    ALTER TABLE posts DROP COLUMN search;
    ALTER TABLE posts ADD COLUMN search tsvector GENERATED ALWAYS AS (
      setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
      setweight(to_tsvector('english', coalesce(excerpt, '')), 'B') ||
      setweight(to_tsvector('english', coalesce(content, '')), 'C')
    ) STORED;
    CREATE INDEX posts_search_idx ON posts USING gin (search);
  `);
}
