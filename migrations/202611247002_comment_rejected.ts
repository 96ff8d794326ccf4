import type { Knex } from 'knex';

/**
 * A rejected comment leaves the moderation queue: it is neither approved nor pending. The
 * per-post counts get a third column, and the trigger sorts each row into exactly one class.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE comments ADD COLUMN rejected boolean NOT NULL DEFAULT false;
    ALTER TABLE comments ADD CONSTRAINT comments_rejected_not_approved CHECK (NOT (approved AND rejected));
    ALTER TABLE comment_counts ADD COLUMN rejected integer NOT NULL DEFAULT 0 CHECK (rejected >= 0);

    CREATE OR REPLACE FUNCTION comment_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO comment_counts AS c (post_id, approved, pending, rejected)
        SELECT post_id, count(*) FILTER (WHERE approved), count(*) FILTER (WHERE NOT approved AND NOT rejected),
               count(*) FILTER (WHERE rejected)
        FROM new_rows GROUP BY post_id
        ON CONFLICT (post_id) DO UPDATE
          SET approved = c.approved + EXCLUDED.approved, pending = c.pending + EXCLUDED.pending,
              rejected = c.rejected + EXCLUDED.rejected;
      ELSIF TG_OP = 'DELETE' THEN
        -- An update, never an insert: when a post is deleted its counts row is already gone.
        UPDATE comment_counts AS c
        SET approved = c.approved - d.approved, pending = c.pending - d.pending, rejected = c.rejected - d.rejected
        FROM (SELECT post_id, count(*) FILTER (WHERE approved) AS approved,
                     count(*) FILTER (WHERE NOT approved AND NOT rejected) AS pending,
                     count(*) FILTER (WHERE rejected) AS rejected
              FROM old_rows GROUP BY post_id) d
        WHERE c.post_id = d.post_id;
      ELSE
        WITH d AS (
          SELECT post_id, sum(a)::int AS a, sum(p)::int AS p, sum(r)::int AS r FROM (
            SELECT post_id, CASE WHEN approved THEN 1 ELSE 0 END AS a,
                   CASE WHEN NOT approved AND NOT rejected THEN 1 ELSE 0 END AS p,
                   CASE WHEN rejected THEN 1 ELSE 0 END AS r
            FROM new_rows
            UNION ALL
            SELECT post_id, CASE WHEN approved THEN -1 ELSE 0 END,
                   CASE WHEN NOT approved AND NOT rejected THEN -1 ELSE 0 END,
                   CASE WHEN rejected THEN -1 ELSE 0 END
            FROM old_rows) x
          GROUP BY post_id HAVING sum(a) <> 0 OR sum(p) <> 0 OR sum(r) <> 0),
        changed AS (
          UPDATE comment_counts AS c SET approved = c.approved + d.a, pending = c.pending + d.p,
                 rejected = c.rejected + d.r
          FROM d WHERE c.post_id = d.post_id RETURNING c.post_id)
        INSERT INTO comment_counts AS c (post_id, approved, pending, rejected)
        SELECT post_id, a, p, r FROM d WHERE post_id NOT IN (SELECT post_id FROM changed)
        ON CONFLICT (post_id) DO UPDATE
          SET approved = c.approved + EXCLUDED.approved, pending = c.pending + EXCLUDED.pending,
              rejected = c.rejected + EXCLUDED.rejected;
      END IF;
      RETURN NULL;
    END $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION comment_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO comment_counts AS c (post_id, approved, pending)
        SELECT post_id, count(*) FILTER (WHERE approved), count(*) FILTER (WHERE NOT approved)
        FROM new_rows GROUP BY post_id
        ON CONFLICT (post_id) DO UPDATE
          SET approved = c.approved + EXCLUDED.approved, pending = c.pending + EXCLUDED.pending;
      ELSIF TG_OP = 'DELETE' THEN
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
    UPDATE comment_counts SET pending = pending + rejected;
    ALTER TABLE comment_counts DROP COLUMN rejected;
    ALTER TABLE comments DROP CONSTRAINT comments_rejected_not_approved;
    ALTER TABLE comments DROP COLUMN rejected;
  `);
}
