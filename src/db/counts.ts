/**
 * The counts tables (migration 202611236001_counts) are derived data: triggers keep them in step
 * with posts, products and comments. A bulk load that bypasses or doubles the triggers (the
 * benchmark generator, a restore) recounts them from the rows instead.
 */
export const COUNTS_TABLES = ['post_counts', 'product_counts', 'comment_counts'] as const;

export const RECOUNT_SQL = `
  DELETE FROM post_counts; DELETE FROM product_counts; DELETE FROM comment_counts;
  INSERT INTO post_counts SELECT status, category, count(*) FROM posts GROUP BY 1, 2;
  INSERT INTO product_counts SELECT status, category, count(*) FROM products GROUP BY 1, 2;
  INSERT INTO comment_counts (post_id, approved, pending, rejected)
    SELECT post_id, count(*) FILTER (WHERE approved), count(*) FILTER (WHERE NOT approved AND NOT rejected),
           count(*) FILTER (WHERE rejected)
    FROM comments GROUP BY post_id;`;
