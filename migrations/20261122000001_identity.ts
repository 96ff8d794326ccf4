import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE users (
      id serial PRIMARY KEY,
      email text NOT NULL,
      username text,
      password_hash text,
      first_name text,
      last_name text,
      profile_image_url text,
      role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
      email_verified boolean NOT NULL DEFAULT false,
      provider text NOT NULL DEFAULT 'local',
      external_id text UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_lower_idx ON users (lower(email));
    CREATE UNIQUE INDEX users_username_lower_idx ON users (lower(username));

    CREATE TABLE sessions (
      sid text PRIMARY KEY,
      sess jsonb NOT NULL DEFAULT '{}'::jsonb,
      expire timestamptz NOT NULL,
      user_id integer REFERENCES users(id) ON DELETE CASCADE
    );
    CREATE INDEX sessions_expire_idx ON sessions (expire);
    CREATE INDEX sessions_user_id_idx ON sessions (user_id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE sessions; DROP TABLE users;');
}
