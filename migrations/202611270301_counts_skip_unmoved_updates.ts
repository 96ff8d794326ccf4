import type { Knex } from 'knex';

/**
 * The post and product counts' trigger returns at once from an update that changes no row's
 * status or category: an order's stock decrement no longer plans and runs the counting statement
 * (about half of that UPDATE's database CPU). The counts come out the same: such an update's net
 * change is zero, which the full statement found and wrote nothing for.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION status_category_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE target text := CASE TG_TABLE_NAME WHEN 'posts' THEN 'post_counts' ELSE 'product_counts' END;
    BEGIN
      -- An update that moves no row to another status or category (a stock change with every
      -- order, a view count) has nothing to count: skip the dynamic statement below.
      -- (Nested: old_rows exists only in an update's call, where alone this is planned.)
      IF TG_OP = 'UPDATE' THEN
        IF NOT EXISTS (SELECT status, category FROM new_rows EXCEPT ALL SELECT status, category FROM old_rows) THEN
          RETURN NULL;
        END IF;
      END IF;
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
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION status_category_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
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
  `);
}
