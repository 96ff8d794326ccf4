import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE blog_settings (
      id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      title text NOT NULL,
      description text NOT NULL,
      author_name text NOT NULL,
      author_bio text NOT NULL,
      author_profile_image text,
      social_links jsonb NOT NULL DEFAULT '{}'::jsonb,
      shop_requires_sign_in boolean NOT NULL DEFAULT false,
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE posts (
      id serial PRIMARY KEY,
      title text NOT NULL,
      slug text NOT NULL UNIQUE,
      content text NOT NULL,
      content_html text NOT NULL DEFAULT '',
      excerpt text NOT NULL,
      category text NOT NULL,
      tags text[] NOT NULL DEFAULT '{}',
      featured_image text,
      featured_image_file text,
      youtube_video_id text,
      podcast_url text,
      status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'scheduled')),
      publish_at timestamptz,
      published_at timestamptz,
      author_id integer REFERENCES users(id) ON DELETE SET NULL,
      view_count integer NOT NULL DEFAULT 0 CHECK (view_count >= 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(excerpt, '')), 'B') ||
        setweight(to_tsvector('english', coalesce(content, '')), 'C')
      ) STORED
    );
    CREATE INDEX posts_published_idx ON posts (published_at DESC, id DESC) WHERE status = 'published';
    CREATE INDEX posts_category_published_idx ON posts (category, published_at DESC, id DESC) WHERE status = 'published';
    CREATE INDEX posts_status_created_idx ON posts (status, created_at DESC);
    CREATE INDEX posts_search_idx ON posts USING gin (search);
    CREATE INDEX posts_tags_idx ON posts USING gin (tags);
    CREATE INDEX posts_publish_at_idx ON posts (publish_at) WHERE status = 'scheduled';

    -- Old slugs keep working after a title change (301 to the current one).
    CREATE TABLE post_slug_history (
      slug text PRIMARY KEY,
      post_id integer NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    -- One row per viewer, post and day: a view counts once per session per post per day.
    -- Rows older than two days are swept; posts.view_count keeps the total.
    CREATE TABLE post_view_log (
      post_id integer NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      viewer text NOT NULL,
      day date NOT NULL,
      PRIMARY KEY (post_id, viewer, day)
    );
    CREATE INDEX post_view_log_day_idx ON post_view_log (day);

    CREATE TABLE comments (
      id serial PRIMARY KEY,
      post_id integer NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      author text NOT NULL,
      email text NOT NULL,
      content text NOT NULL,
      likes integer NOT NULL DEFAULT 0 CHECK (likes >= 0),
      approved boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX comments_post_approved_idx ON comments (post_id, approved, created_at);
    CREATE INDEX comments_approved_created_idx ON comments (approved, created_at DESC);

    CREATE TABLE comment_likes (
      comment_id integer NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
      liker text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (comment_id, liker)
    );

    CREATE TABLE newsletter_subscribers (
      id serial PRIMARY KEY,
      email text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
      token text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      confirmed_at timestamptz
    );
    CREATE UNIQUE INDEX newsletter_subscribers_email_idx ON newsletter_subscribers (lower(email));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'DROP TABLE newsletter_subscribers, comment_likes, comments, post_view_log, post_slug_history, posts, blog_settings;',
  );
}
