import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';

/**
 * A new guest session's row as a data-modifying CTE of another statement, written only when the
 * CTE named `when` returns a row (an add to the cart that took its line): the session and the
 * write that needs it in one round trip. The sid is returned when written.
 */
export function guestSessionInsertWhen(db: Db, sid: string, expires: Date | string, when: string): Knex.Raw {
  return db.raw(
    `INSERT INTO sessions (sid, sess, expire)
     SELECT CAST(? AS text), '{}'::jsonb, CAST(? AS timestamptz) WHERE EXISTS (SELECT 1 FROM ??)
     ON CONFLICT (sid) DO NOTHING RETURNING sid`,
    [sid, expires, when],
  );
}
