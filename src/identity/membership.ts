import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { ReaderAccess } from '../blog/paywall.ts';
import type { Db } from '../db/knex.ts';
import { EFFECTIVE_STATUS_SQL, PAID_TIER_SQL } from '../db/membership-sql.ts';
import type { SessionUser } from '../kernel/request.ts';

export const MEMBERSHIP_STATUSES = ['free', 'paid', 'comped', 'past_due'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** What `GET /api/users?action=me` says of the reader's membership. */
export type Membership = {
  status: MembershipStatus;
  tierId: number | null;
  interval: 'month' | 'year' | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
};

export const FREE_MEMBERSHIP: Membership = {
  status: 'free',
  tierId: null,
  interval: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
};

/** What a signed-in reader may read (admins read everything). */
export function readerAccess(user: SessionUser | null): ReaderAccess {
  if (!user) return { signedIn: false, paidTierId: null };
  if (user.role === 'admin') return { signedIn: true, paidTierId: null, full: true };
  return { signedIn: true, paidTierId: user.paidTierId ?? null };
}

type MembershipRow = {
  effective: MembershipStatus;
  tier_id: number | null;
  interval: 'month' | 'year' | null;
  current_period_end: Date | null;
  comped_until: Date | null;
  cancel_at_period_end: boolean;
};

function present(row: MembershipRow | undefined): Membership {
  if (!row || row.effective === 'free') return FREE_MEMBERSHIP;
  return {
    status: row.effective,
    tierId: row.tier_id,
    interval: row.effective === 'comped' ? null : row.interval,
    currentPeriodEnd:
      (row.effective === 'comped' ? row.comped_until : row.current_period_end)?.toISOString() ?? null,
    cancelAtPeriodEnd: row.effective === 'comped' ? false : row.cancel_at_period_end,
  };
}

export async function membershipOf(db: Db | Knex.Transaction, userId: number): Promise<Membership> {
  const row = await db('memberships as m')
    .where('m.user_id', userId)
    .first(
      db.raw(`${EFFECTIVE_STATUS_SQL} AS effective`),
      'm.tier_id',
      'm.interval',
      'm.current_period_end',
      'm.comped_until',
      'm.cancel_at_period_end',
    );
  return present(row as MembershipRow | undefined);
}

/** A membership's stored columns, as the Stripe workflow and the comp set them. */
export type MembershipChange = {
  status: MembershipStatus;
  tier_id: number | null;
  interval?: 'month' | 'year' | null;
  current_period_end?: Date | null;
  cancel_at_period_end?: boolean;
  past_due_since?: Date | null;
  comped_until?: Date | null;
  stripe_customer_id?: string | null;
  stripe_subscription_id?: string | null;
};

/**
 * Writes a membership and a line of its history in one transaction; the history says what
 * happened (`type`) and which Stripe event did it. Nothing is written when nothing changed.
 */
export async function setMembership(
  trx: Knex.Transaction,
  userId: number,
  change: MembershipChange,
  history: { type: string; stripeEventId?: string | null; sourcePostId?: number | null },
): Promise<boolean> {
  const before = await trx('memberships').where({ user_id: userId }).forUpdate().first();
  const next = { ...change, user_id: userId };
  const same =
    before &&
    Object.entries(change).every(([name, value]) => {
      const old = before[name];
      if (value instanceof Date || old instanceof Date)
        return (value as Date | null)?.getTime() === (old as Date | null)?.getTime();
      return value === old;
    });
  if (same) return false;
  await trx('memberships')
    .insert(next)
    .onConflict('user_id')
    .merge({ ...change, updated_at: trx.fn.now() });
  await trx('membership_events').insert({
    user_id: userId,
    type: history.type,
    status: change.status,
    tier_id: change.tier_id,
    interval: change.interval ?? null,
    stripe_event_id: history.stripeEventId ?? null,
    source_post_id: history.sourcePostId ?? null,
  });
  return true;
}

/** The member's private podcast feed token, or null before they asked for one. */
export async function feedTokenOf(db: Db, userId: number): Promise<string | null> {
  return (await db('memberships').where({ user_id: userId }).first('feed_token'))?.feed_token ?? null;
}

/** A new private feed token: the old one (a feed URL shared or leaked) stops working. */
export async function issueFeedToken(db: Db, userId: number): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await db('memberships')
    .insert({ user_id: userId, status: 'free', feed_token: token })
    .onConflict('user_id')
    .merge({ feed_token: token, updated_at: db.fn.now() });
  return token;
}

/** Who a private feed token belongs to, as what they may read now; null for no such token. */
export async function readerOfFeedToken(db: Db, token: string): Promise<ReaderAccess | null> {
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return null;
  const row = await db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.feed_token', token)
    .first('u.role', db.raw(`${PAID_TIER_SQL} AS paid_tier_id`));
  if (!row) return null;
  return readerAccess({ role: row.role, paidTierId: row.paid_tier_id } as SessionUser);
}
