import type { Knex } from 'knex';

/**
 * Counts that hot pages show without scanning: posts and products per status and category, and
 * approved and pending comments per post. Statement-level triggers keep them exact inside the
 * writing transaction (a COPY or a multi-row insert adds one aggregate, not one update per row).
 */
export async function up(knex: Knex): Promise<void> {
  // Rewrites every post (or counts every row) of a large site: no statement time limit here.
  await knex.raw('SET LOCAL statement_timeout = 0');
  await knex.raw(`
    CREATE TABLE post_counts (
      status text NOT NULL,
      category text NOT NULL,
      n integer NOT NULL CHECK (n >= 0),
      PRIMARY KEY (status, category)
    );
    CREATE TABLE product_counts (
      status text NOT NULL,
      category text NOT NULL,
      n integer NOT NULL CHECK (n >= 0),
      PRIMARY KEY (status, category)
    );
    CREATE TABLE comment_counts (
      post_id integer PRIMARY KEY REFERENCES posts(id) ON DELETE CASCADE,
      approved integer NOT NULL DEFAULT 0 CHECK (approved >= 0),
      pending integer NOT NULL DEFAULT 0 CHECK (pending >= 0)
    );

    -- One function per counted table; TG_TABLE_NAME picks the counts table.
    CREATE FUNCTION status_category_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE target text := CASE TG_TABLE_NAME WHEN 'posts' THEN 'post_counts' ELSE 'product_counts' END;
    BEGIN
      IF TG_OP = 'INSERT' THEN
        EXECUTE format(
          'INSERT INTO %I AS c (status, category, n)
           SELECT status, category, count(*) FROM new_rows GROUP BY 1, 2
           ON CONFLICT (status, category) DO UPDATE SET n = c.n + EXCLUDED.n', target);
      ELSIF TG_OP = 'DELETE' THEN
        EXECUTE format(
          'UPDATE %I AS c SET n = c.n - d.n
           FROM (SELECT status, category, count(*) AS n FROM old_rows GROUP BY 1, 2) d
           WHERE c.status = d.status AND c.category = d.category', target);
      ELSE
        -- Most updates (view counts, edits) move nothing: only net changes are written. Existing
        -- rows are updated in place (a proposed insert row may not break the CHECK, even one
        -- that ends in a conflict); only a pair seen for the first time is inserted.
        EXECUTE format(
          'WITH d AS (
             SELECT status, category, sum(d)::int AS n FROM (
               SELECT status, category, 1 AS d FROM new_rows
               UNION ALL SELECT status, category, -1 FROM old_rows) x
             GROUP BY 1, 2 HAVING sum(d) <> 0),
           changed AS (
             UPDATE %1$I AS c SET n = c.n + d.n FROM d
             WHERE c.status = d.status AND c.category = d.category RETURNING c.status, c.category)
           INSERT INTO %1$I AS c (status, category, n)
           SELECT status, category, n FROM d
           WHERE NOT EXISTS (SELECT 1 FROM changed WHERE changed.status = d.status AND changed.category = d.category)
           ON CONFLICT (status, category) DO UPDATE SET n = c.n + EXCLUDED.n', target);
      END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION comment_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO comment_counts AS c (post_id, approved, pending)
        SELECT post_id, count(*) FILTER (WHERE approved), count(*) FILTER (WHERE NOT approved)
        FROM new_rows GROUP BY post_id
        ON CONFLICT (post_id) DO UPDATE
          SET approved = c.approved + EXCLUDED.approved, pending = c.pending + EXCLUDED.pending;
      ELSIF TG_OP = 'DELETE' THEN
        -- An update, never an insert: when a post is deleted its counts row is already gone.
        UPDATE comment_counts AS c
        SET approved = c.approved - d.approved, pending = c.pending - d.pending
        FROM (SELECT post_id, count(*) FILTER (WHERE approved) AS approved,
                     count(*) FILTER (WHERE NOT approved) AS pending
              FROM old_rows GROUP BY post_id) d
        WHERE c.post_id = d.post_id;
      ELSE
        WITH d AS (
          SELECT post_id, sum(a)::int AS a, sum(p)::int AS p FROM (
            SELECT post_id, CASE WHEN approved THEN 1 ELSE 0 END AS a, CASE WHEN approved THEN 0 ELSE 1 END AS p
            FROM new_rows
            UNION ALL
            SELECT post_id, CASE WHEN approved THEN -1 ELSE 0 END, CASE WHEN approved THEN 0 ELSE -1 END
            FROM old_rows) x
          GROUP BY post_id HAVING sum(a) <> 0 OR sum(p) <> 0),
        changed AS (
          UPDATE comment_counts AS c SET approved = c.approved + d.a, pending = c.pending + d.p
          FROM d WHERE c.post_id = d.post_id RETURNING c.post_id)
        INSERT INTO comment_counts AS c (post_id, approved, pending)
        SELECT post_id, a, p FROM d WHERE post_id NOT IN (SELECT post_id FROM changed)
        ON CONFLICT (post_id) DO UPDATE
          SET approved = c.approved + EXCLUDED.approved, pending = c.pending + EXCLUDED.pending;
      END IF;
      RETURN NULL;
    END $$;

    CREATE FUNCTION counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      CASE TG_TABLE_NAME
        WHEN 'posts' THEN DELETE FROM post_counts;
        WHEN 'products' THEN DELETE FROM product_counts;
        ELSE DELETE FROM comment_counts;
      END CASE;
      RETURN NULL;
    END $$;
  `);
  for (const table of ['posts', 'products', 'comments']) {
    const fn = table === 'comments' ? 'comment_counts_apply' : 'status_category_counts_apply';
    await knex.raw(`
      CREATE TRIGGER ${table}_counts_insert AFTER INSERT ON ${table}
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
      CREATE TRIGGER ${table}_counts_update AFTER UPDATE ON ${table}
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
      CREATE TRIGGER ${table}_counts_delete AFTER DELETE ON ${table}
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}();
      CREATE TRIGGER ${table}_counts_truncate AFTER TRUNCATE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION counts_truncate();
    `);
  }
  await knex.raw(`
    INSERT INTO post_counts SELECT status, category, count(*) FROM posts GROUP BY 1, 2;
    INSERT INTO product_counts SELECT status, category, count(*) FROM products GROUP BY 1, 2;
    INSERT INTO comment_counts
      SELECT post_id, count(*) FILTER (WHERE approved), count(*) FILTER (WHERE NOT approved)
      FROM comments GROUP BY post_id;

    -- A post's approved comments, newest first, paged by id (keyset): read straight off the index.
    CREATE INDEX comments_post_approved_id_idx ON comments (post_id, id DESC) WHERE approved;
    -- The dashboard's popular posts.
    CREATE INDEX posts_popular_idx ON posts (view_count DESC, id DESC) WHERE status = 'published';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX posts_popular_idx;
    DROP INDEX comments_post_approved_id_idx;
  `);
  for (const table of ['posts', 'products', 'comments']) {
    for (const op of ['insert', 'update', 'delete', 'truncate'])
      await knex.raw(`DROP TRIGGER ${table}_counts_${op} ON ${table}`);
  }
  await knex.raw(`
    DROP FUNCTION counts_truncate(), comment_counts_apply(), status_category_counts_apply();
    DROP TABLE comment_counts, product_counts, post_counts;
  `);
}
