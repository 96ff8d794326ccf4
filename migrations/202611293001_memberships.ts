import type { Knex } from 'knex';

/**
 * Paid memberships: tiers, one membership row per member who ever paid or was comped (no row is a
 * free member), its history, and each post's visibility with the public preview stored beside the
 * whole body. Search indexes only what anyone may read: the preview of a gated post.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE tiers (
      id serial PRIMARY KEY,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      monthly_price integer NOT NULL CHECK (monthly_price > 0),
      yearly_price integer NOT NULL CHECK (yearly_price > 0),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE memberships (
      user_id integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'free' CHECK (status IN ('free', 'paid', 'comped', 'past_due')),
      tier_id integer REFERENCES tiers(id),
      interval text CHECK (interval IN ('month', 'year')),
      current_period_end timestamptz,
      cancel_at_period_end boolean NOT NULL DEFAULT false,
      past_due_since timestamptz,
      comped_until timestamptz,
      stripe_customer_id text UNIQUE,
      stripe_subscription_id text UNIQUE,
      feed_token text UNIQUE,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX memberships_status_idx ON memberships (status, tier_id);
    CREATE TABLE membership_events (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type text NOT NULL,
      status text NOT NULL,
      tier_id integer,
      stripe_event_id text,
      -- The post a paid sign-up subscribed from (its paywall's form): what converted the reader.
      source_post_id integer REFERENCES posts(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX membership_events_user_idx ON membership_events (user_id, id);

    ALTER TABLE newsletters
      ADD COLUMN audience text NOT NULL DEFAULT 'all' CHECK (audience IN ('all', 'free', 'paid')),
      ADD COLUMN audience_tier integer REFERENCES tiers(id);

    ALTER TABLE posts
      ADD COLUMN visibility text NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'members', 'paid')),
      ADD COLUMN visibility_tiers integer[] NOT NULL DEFAULT '{}',
      ADD COLUMN preview_content text,
      ADD COLUMN preview_html text;

    CREATE OR REPLACE FUNCTION posts_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.search := strip(to_tsvector('english',
        coalesce(NEW.title, '') || ' ' || coalesce(NEW.excerpt, '') || ' ' ||
        coalesce(NEW.preview_content, NEW.content, '')));
      RETURN NEW;
    END $$;
    DROP TRIGGER posts_search ON posts;
    CREATE TRIGGER posts_search BEFORE INSERT OR UPDATE OF title, excerpt, content, preview_content ON posts
      FOR EACH ROW EXECUTE FUNCTION posts_search_vector();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER posts_search ON posts;
    CREATE OR REPLACE FUNCTION posts_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      NEW.search := strip(to_tsvector('english',
        coalesce(NEW.title, '') || ' ' || coalesce(NEW.excerpt, '') || ' ' || coalesce(NEW.content, '')));
      RETURN NEW;
    END $$;
    CREATE TRIGGER posts_search BEFORE INSERT OR UPDATE OF title, excerpt, content ON posts
      FOR EACH ROW EXECUTE FUNCTION posts_search_vector();
    ALTER TABLE newsletters DROP COLUMN audience, DROP COLUMN audience_tier;
    ALTER TABLE posts DROP COLUMN visibility, DROP COLUMN visibility_tiers,
      DROP COLUMN preview_content, DROP COLUMN preview_html;
    DROP TABLE membership_events;
    DROP TABLE memberships;
    DROP TABLE tiers;
  `);
}
