import type { Db } from '../../src/db/knex.ts';

/**
 * Tables that move on their own for any request, accepted or not: session expiry (and the
 * guest session a request may open), rate-limit counters and the one-off demo marker.
 */
const VOLATILE = new Set(['sessions', 'rate_limits', 'app_meta']);

/**
 * Tables whose rows may only be added (the audit log records refused attempts too). Watched on
 * request (`appendOnly`): their fingerprint covers the rows that existed before, so a new row is
 * fine and a changed or removed one shows. Each has a growing integer `id`.
 */
const APPEND_ONLY = new Set(['audit_log']);

export const isAppendOnly = (table: string) => APPEND_ONLY.has(table);

/** Every table of the public schema except knex's bookkeeping, the volatile ones and (unless asked) the append-only ones. */
export async function watchedTables(db: Db, opts: { appendOnly?: boolean } = {}): Promise<string[]> {
  const rows: { relname: string }[] = await db('pg_class as c')
    .join('pg_namespace as s', 's.oid', 'c.relnamespace')
    .where({ 's.nspname': 'public', 'c.relkind': 'r' })
    .whereNot('c.relname', 'like', 'knex%')
    .orderBy('c.relname')
    .select('c.relname');
  return rows
    .map((r) => r.relname)
    .filter((name) => !VOLATILE.has(name) && (opts.appendOnly || !APPEND_ONLY.has(name)));
}

export type Fingerprint = Record<string, string>;

// A sum of 64-bit row hashes is order-independent without sorting: sorted md5s made a fingerprint
// of the demo data 16 times slower, most of a fuzzed request's time.
const rowsHash = (t: string, where = '') =>
  `count(*)::text || ':' || coalesce(sum(hashtextextended(x::text, 0)::numeric)::text, '') AS f FROM "${t}" x${where}`;

/**
 * Per table: its row count and a hash of every row's full content (order-independent), so an
 * insert, update or delete anywhere shows, not only a change in counts. An append-only table is
 * hashed up to its last id at `since` (the fingerprint taken before), so only its old rows count.
 */
export async function fingerprint(db: Db, tables: string[], since?: Fingerprint): Promise<Fingerprint> {
  const parts = await Promise.all(
    tables.map(async (t) => {
      if (!APPEND_ONLY.has(t)) return `SELECT '${t}' AS t, ${rowsHash(t)}`;
      const bound = since?.[t]
        ? Number(since[t].split('|')[0])
        : Number((await db(t).max({ id: 'id' }).first())?.id ?? 0);
      return `SELECT '${t}' AS t, '${bound}|' || ${rowsHash(t, ` WHERE x.id <= ${bound}`)}`;
    }),
  );
  const { rows } = await db.raw(parts.join(' UNION ALL '));
  return Object.fromEntries((rows as { t: string; f: string }[]).map((r) => [r.t, r.f]));
}

/** The tables whose content differs between two fingerprints. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  // Sorted: UNION ALL gives no row order, and more tables can make PostgreSQL append in parallel.
  return Object.keys({ ...before, ...after })
    .filter((t) => before[t] !== after[t])
    .sort();
}
