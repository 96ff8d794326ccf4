import { createHash, randomBytes } from 'node:crypto';
import { compiledOnce, type Db, prepared } from '../db/knex.ts';
import { PAID_TIER_SQL } from '../db/membership-sql.ts';
import type { SessionUser } from '../kernel/request.ts';
import { sessionCartCountColumn } from '../shop/cart.ts';

export const SESSION_COOKIE = 'sid';
/** The specification's cookie default lifetime. */
export const SESSION_TTL_MS = 365 * 24 * 60 * 60 * 1000;

export type SessionRecord = {
  id: string;
  userId: number | null;
  data: Record<string, unknown>;
  expiresAt: Date;
};

export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

export function isWellFormedSessionId(value: string | undefined | null): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{32,64}$/.test(value);
}

/**
 * An id a guest API client chose itself (SPEC §6: generated once per browser session) is taken
 * when it is long and random enough not to be guessed: 22–128 URL-safe characters.
 */
export function isClientChosenSessionId(value: string | undefined | null): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{22,128}$/.test(value);
}

/**
 * A new session: under a server-minted id, or for a guest only, under the id the client chose
 * (a server-minted one when that id is already taken).
 */
export async function createSession(
  db: Db,
  userId: number | null,
  data: Record<string, unknown> = {},
  clientChosenSid?: string,
  client: { userAgent?: string; network?: string | null } = {},
): Promise<string> {
  const sid = userId === null && clientChosenSid ? clientChosenSid : newSessionId();
  const inserted = await prepared(
    db('sessions')
      .insert({
        sid,
        sess: JSON.stringify(data),
        expire: new Date(Date.now() + SESSION_TTL_MS),
        user_id: userId,
        user_agent: client.userAgent?.slice(0, 300) || null,
        network: client.network ?? null,
      })
      .onConflict('sid')
      .ignore()
      .returning('sid'),
  );
  return inserted.length ? sid : createSession(db, userId, data, undefined, client);
}

type SessionJoinRow = {
  sid: string;
  sess: Record<string, unknown> | null;
  expire: Date;
  user_id: number | null;
  uid: number | null;
  email: string;
  username: string;
  first_name: string | null;
  last_name: string | null;
  role: SessionUser['role'];
  paid_tier_id: number | null;
  cart_count: number | string;
};

/** The session, its user and its cart's count for the header, or null when unknown or expired. */
export async function loadSession(
  db: Db,
  sid: string,
): Promise<{ session: SessionRecord; user: SessionUser | null; cartCount: number } | null> {
  const row = await compiledOnce<SessionJoinRow | undefined>(db, 'loadSession', [sid], (sidValue) =>
    db('sessions as s')
      .leftJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('memberships as m', 'm.user_id', 's.user_id')
      .where('s.sid', sidValue)
      .where('s.expire', '>', db.fn.now())
      .first(
        's.sid',
        's.sess',
        's.expire',
        's.user_id',
        'u.id as uid',
        'u.email',
        'u.username',
        'u.first_name',
        'u.last_name',
        'u.role',
        db.raw(`${PAID_TIER_SQL} AS paid_tier_id`),
        sessionCartCountColumn(db),
      ),
  );
  if (!row) return null;
  return {
    session: { id: row.sid, userId: row.user_id, data: row.sess ?? {}, expiresAt: new Date(row.expire) },
    user: row.uid
      ? {
          id: row.uid,
          email: row.email,
          username: row.username,
          firstName: row.first_name,
          lastName: row.last_name,
          role: row.role,
          paidTierId: row.paid_tier_id,
        }
      : null,
    cartCount: Number(row.cart_count),
  };
}

/** Writes are spared while the deadline is within this much of where it should be. */
const SLIDE_SLACK_MS = 60 * 60 * 1000;

/**
 * Sliding idle expiry for a signed-in session: its deadline is `idleMs` after its last use. The
 * row is written at most about once an hour per session, not on every request.
 */
export async function slideSessionExpiry(
  db: Db,
  session: SessionRecord,
  idleMs: number,
  network: string | null,
  now = Date.now(),
) {
  const due = now + idleMs;
  if (Math.abs(session.expiresAt.getTime() - due) <= SLIDE_SLACK_MS) return;
  await db('sessions')
    .where({ sid: session.id })
    .update({ expire: new Date(due), last_seen_at: new Date(now), ...(network ? { network } : {}) });
  session.expiresAt = new Date(due);
}

/** A session's handle on the Account page: never the session id itself, which is a credential. */
export function sessionHandle(sid: string): string {
  return createHash('sha256').update(sid).digest('base64url').slice(0, 16);
}

export type UserSessionView = {
  handle: string;
  current: boolean;
  userAgent: string | null;
  /** The network it was last used from (see addressNetwork), when known. */
  network: string | null;
  createdAt: string;
  lastSeenAt: string;
};

/** The user's signed-in sessions that have not expired, the most recently used first. */
export async function listUserSessions(
  db: Db,
  userId: number,
  currentSid: string | null,
): Promise<UserSessionView[]> {
  const rows = await db('sessions')
    .where({ user_id: userId })
    .where('expire', '>', db.fn.now())
    .orderBy('last_seen_at', 'desc')
    .select('sid', 'user_agent', 'network', 'created_at', 'last_seen_at');
  return rows.map((r) => ({
    handle: sessionHandle(r.sid),
    current: r.sid === currentSid,
    userAgent: r.user_agent,
    network: r.network,
    createdAt: r.created_at.toISOString(),
    lastSeenAt: r.last_seen_at.toISOString(),
  }));
}

/** Ends one of the user's own sessions, named by its handle. */
export async function endUserSession(db: Db, userId: number, handle: string): Promise<boolean> {
  const rows = await db('sessions').where({ user_id: userId }).select('sid');
  const match = rows.find((r) => sessionHandle(r.sid) === handle);
  if (!match) return false;
  await db('sessions').where({ sid: match.sid, user_id: userId }).delete();
  return true;
}

/** Every session of the user but this one: 'Sign out everywhere else', and after a password change. */
export async function endOtherSessions(db: Db, userId: number, keepSid: string | null): Promise<number> {
  const query = db('sessions').where({ user_id: userId });
  if (keepSid) query.whereNot({ sid: keepSid });
  return query.delete();
}

export async function destroySession(db: Db, sid: string): Promise<void> {
  await db('sessions').where({ sid }).delete();
}

/**
 * Deletes the sessions that have expired and the guest carts that were theirs: a guest's cart is
 * reached only through its session, so once the session is gone nobody can see or order it.
 * A signed-in shopper's cart (user_id) stays with the account.
 */
export async function sweepExpiredSessions(db: Db): Promise<{ sessions: number; carts: number }> {
  const { rows } = await db.raw(`
    WITH ended AS (DELETE FROM sessions WHERE expire < now() RETURNING sid),
    emptied AS (
      DELETE FROM carts c WHERE c.user_id IS NULL AND c.session_id IN (SELECT sid FROM ended) RETURNING c.id
    )
    SELECT (SELECT count(*) FROM ended) AS sessions, (SELECT count(*) FROM emptied) AS carts`);
  return { sessions: Number(rows[0].sessions), carts: Number(rows[0].carts) };
}
