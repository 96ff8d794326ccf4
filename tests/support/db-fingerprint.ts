import type { Db } from '../../src/db/knex.ts';

/**
 * Tables that move on their own for any request, accepted or not: session expiry (and the
 * guest session a request may open), rate-limit counters, the one-off demo marker, and the
 * audit log (which records an admin's refused attempts too).
 */
const VOLATILE = new Set(['sessions', 'rate_limits', 'app_meta', 'audit_log']);

/** Every table of the public schema except knex's bookkeeping and the volatile ones. */
export async function watchedTables(db: Db): Promise<string[]> {
  const rows: { relname: string }[] = await db('pg_class as c')
    .join('pg_namespace as s', 's.oid', 'c.relnamespace')
    .where({ 's.nspname': 'public', 'c.relkind': 'r' })
    .whereNot('c.relname', 'like', 'knex%')
    .orderBy('c.relname')
    .select('c.relname');
  return rows.map((r) => r.relname).filter((name) => !VOLATILE.has(name));
}

export type Fingerprint = Record<string, string>;

/**
 * Per table: its row count and a hash of every row's full content (order-independent), so an
 * insert, update or delete anywhere shows, not only a change in counts.
 */
export async function fingerprint(db: Db, tables: string[]): Promise<Fingerprint> {
  const sql = tables
    .map(
      (t) =>
        `SELECT '${t}' AS t, count(*)::text || ':' || coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') AS f FROM "${t}" x`,
    )
    .join(' UNION ALL ');
  const { rows } = await db.raw(sql);
  return Object.fromEntries((rows as { t: string; f: string }[]).map((r) => [r.t, r.f]));
}

/** The tables whose content differs between two fingerprints. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  // Sorted: UNION ALL gives no row order, and more tables can make PostgreSQL append in parallel.
  return Object.keys({ ...before, ...after })
    .filter((t) => before[t] !== after[t])
    .sort();
}
