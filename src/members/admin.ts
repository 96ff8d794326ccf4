import { lastDays, type Range } from '../analytics/report.ts';
import type { Db } from '../db/knex.ts';
import { EFFECTIVE_STATUS_SQL } from '../db/membership-sql.ts';
import {
  MEMBERSHIP_STATUSES,
  type MembershipStatus,
  membershipOf,
  setMembership,
} from '../identity/membership.ts';
import { Conflict, NotFound } from '../kernel/errors.ts';
import { getTier } from '../shop/tiers.ts';
import { z } from '../zod.ts';
import type { CompInput } from './member-schema.ts';
import { MEMBER_MESSAGES } from './messages.ts';

/** `GET /api/admin/members`'s query: a status, a tier, words of the name or address. */
export const memberQuerySchema = z.object({
  status: z.enum(MEMBERSHIP_STATUSES, { error: 'status must be free, paid, comped or past_due' }).optional(),
  tierId: z.coerce.number().int().positive().optional(),
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type MemberQuery = z.output<typeof memberQuerySchema>;

export type MemberListItem = {
  userId: number;
  email: string;
  name: string;
  status: MembershipStatus;
  tierId: number | null;
  tierName: string | null;
  interval: 'month' | 'year' | null;
  currentPeriodEnd: string | null;
  createdAt: string;
};

export type MemberTotals = { free: number; paid: number; comped: number; mrr: number };

/** Paid sign-ups and ended subscriptions in the last days, from the members' history. */
export type MemberFlows = { days: number; started: number; cancelled: number };

/** A day of the members' history: paying members and MRR at its end, paid memberships begun and ended in it. */
export type MemberDay = { day: string; paid: number; mrr: number; started: number; cancelled: number };

const PAGE = 50;

/** Every confirmed account with its membership as it holds now; no row is a free member. */
function membersQuery(db: Db) {
  return db('users as u')
    .leftJoin('memberships as m', 'm.user_id', 'u.id')
    .leftJoin('tiers as t', 't.id', 'm.tier_id')
    .where('u.email_verified', true)
    .where('u.role', 'user');
}

const STATUS = `coalesce((${EFFECTIVE_STATUS_SQL}), 'free')`;
/** The statuses that pay: past due ones too, until their grace ends. */
const PAYING = `('paid', 'past_due')`;
/** A paying membership's (or history line's) worth a month at its tier `t`'s price: a yearly price as a twelfth. */
const MONTHLY_SQL = (alias: string) =>
  `CASE ${alias}.interval WHEN 'year' THEN t.yearly_price / 12.0 ELSE t.monthly_price END`;

/** The admin's members: a page of them, newest first, and the totals over all of them. */
export async function listMembers(
  db: Db,
  query: MemberQuery,
): Promise<{ members: MemberListItem[]; totals: MemberTotals }> {
  const list = membersQuery(db)
    .select(
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.created_at',
      'm.tier_id',
      'm.interval',
      'm.current_period_end',
      'm.comped_until',
      't.name as tier_name',
      db.raw(`${STATUS} AS status`),
    )
    .orderBy('u.id', 'desc')
    .limit(PAGE)
    .offset((query.page - 1) * PAGE);
  if (query.status) list.whereRaw(`${STATUS} = ?`, [query.status]);
  if (query.tierId) list.where('m.tier_id', query.tierId).whereRaw(`${STATUS} <> 'free'`);
  if (query.q) {
    const like = `%${query.q.replace(/[%_\\]/g, '\\$&')}%`;
    list.where((w) =>
      w.whereILike('u.email', like).orWhereILike('u.first_name', like).orWhereILike('u.last_name', like),
    );
  }
  const rows = (await list) as Record<string, unknown>[];
  return {
    members: rows.map((r) => {
      const status = r.status as MembershipStatus;
      const free = status === 'free';
      const end = status === 'comped' ? r.comped_until : r.current_period_end;
      return {
        userId: r.id as number,
        email: r.email as string,
        name: [r.first_name, r.last_name].filter(Boolean).join(' '),
        status,
        tierId: free ? null : (r.tier_id as number),
        tierName: free ? null : (r.tier_name as string),
        interval: free || status === 'comped' ? null : (r.interval as 'month' | 'year'),
        currentPeriodEnd: free || !end ? null : (end as Date).toISOString(),
        createdAt: (r.created_at as Date).toISOString(),
      };
    }),
    totals: await memberTotals(db),
  };
}

/**
 * Members by status and the MRR: paying members (past due ones too, until their grace ends) at
 * their tier's price, a yearly price as a twelfth, in cents.
 */
export async function memberTotals(db: Db): Promise<MemberTotals> {
  const row = (await membersQuery(db)
    .select(
      db.raw(`count(*) FILTER (WHERE ${STATUS} = 'free') AS free`),
      db.raw(`count(*) FILTER (WHERE ${STATUS} IN ${PAYING}) AS paid`),
      db.raw(`count(*) FILTER (WHERE ${STATUS} = 'comped') AS comped`),
      db.raw(`coalesce(sum(CASE WHEN ${STATUS} IN ${PAYING} THEN ${MONTHLY_SQL('m')} END), 0) AS mrr`),
    )
    .first()) as Record<string, string>;
  return {
    free: Number(row.free),
    paid: Number(row.paid),
    comped: Number(row.comped),
    mrr: Math.round(Number(row.mrr)),
  };
}

/** A member (their address and name, whichever list they are in) and their subscription history, newest first. */
export async function memberHistory(db: Db, userId: number) {
  const user = await db('users').where({ id: userId }).first('id', 'email', 'first_name', 'last_name');
  if (!user) throw new NotFound(MEMBER_MESSAGES.memberNotFound);
  const events = await db('membership_events as e')
    .leftJoin('posts as p', 'p.id', 'e.source_post_id')
    .where('e.user_id', userId)
    .orderBy('e.id', 'desc')
    .limit(200)
    .select('e.type', 'e.status', 'e.tier_id', 'e.created_at', 'p.slug', 'p.title');
  return {
    email: user.email as string,
    name: [user.first_name, user.last_name].filter(Boolean).join(' '),
    membership: await membershipOf(db, userId),
    history: events.map((e) => ({
      type: e.type as string,
      status: e.status as MembershipStatus,
      tierId: e.tier_id as number | null,
      at: (e.created_at as Date).toISOString(),
      /** The post whose paywall a paid sign-up came from. */
      fromPost: e.slug ? { slug: e.slug as string, title: e.title as string } : null,
    })),
  };
}

/** A complimentary membership of a tier, until a date or for good; a paying member keeps paying. */
export async function compMember(db: Db, userId: number, input: CompInput) {
  const user = await db('users').where({ id: userId }).first('id');
  if (!user) throw new NotFound(MEMBER_MESSAGES.memberNotFound);
  const tier = await getTier(db, input.tierId);
  if (!tier) throw new NotFound(MEMBER_MESSAGES.tierNotFound);
  await db.transaction(async (trx) => {
    const now = await membershipOf(trx, userId);
    if (now.status === 'paid' || now.status === 'past_due') throw new Conflict(MEMBER_MESSAGES.paysAlready);
    await setMembership(
      trx,
      userId,
      {
        status: 'comped',
        tier_id: tier.id,
        comped_until: input.until ?? null,
        interval: null,
        current_period_end: null,
        cancel_at_period_end: false,
        past_due_since: null,
      },
      { type: 'comped' },
    );
  });
  return membershipOf(db, userId);
}

/**
 * Ends a complimentary membership now: the member is free. Only a comp ends this way; a paid
 * subscription is Stripe's to end (the member's portal).
 */
export async function endComp(db: Db, userId: number) {
  const user = await db('users').where({ id: userId }).first('id');
  if (!user) throw new NotFound(MEMBER_MESSAGES.memberNotFound);
  await db.transaction(async (trx) => {
    // Locked before it is judged: two admins ending the same comp record one end.
    await trx('memberships').where({ user_id: userId }).forUpdate().first('user_id');
    if ((await membershipOf(trx, userId)).status !== 'comped') throw new Conflict(MEMBER_MESSAGES.noComp);
    await setMembership(
      trx,
      userId,
      { status: 'free', tier_id: null, comped_until: null },
      { type: 'comp ended' },
    );
  });
  return membershipOf(db, userId);
}

/**
 * The members' history day by day (UTC days, as the analytics'), from..to: each line of a member's
 * history that starts paying (from free, comped or nothing) is a paid membership begun, each that
 * stops paying one ended; the paying members and the MRR at a day's end add up those steps since
 * the first line, at the tiers' prices of today.
 */
const MEMBER_DAYS_SQL = `WITH lines AS (
    SELECT e.id, e.user_id, e.created_at,
      CASE WHEN e.status IN ${PAYING} THEN 1 ELSE 0 END AS paying,
      CASE WHEN e.status IN ${PAYING} THEN coalesce(${MONTHLY_SQL('e')}, 0) ELSE 0 END AS worth
    FROM membership_events e LEFT JOIN tiers t ON t.id = e.tier_id
    WHERE e.created_at < (CAST(:to AS date) + 1)::timestamp AT TIME ZONE 'UTC'
  ), steps AS (
    SELECT (created_at AT TIME ZONE 'UTC')::date AS day,
      paying - coalesce(lag(paying) OVER w, 0) AS paid_step,
      worth - coalesce(lag(worth) OVER w, 0) AS mrr_step
    FROM lines WINDOW w AS (PARTITION BY user_id ORDER BY id)
  ), days AS (
    SELECT day, count(*) FILTER (WHERE paid_step > 0) AS started, count(*) FILTER (WHERE paid_step < 0) AS cancelled,
      sum(sum(paid_step)) OVER (ORDER BY day) AS paid, sum(sum(mrr_step)) OVER (ORDER BY day) AS mrr
    FROM steps GROUP BY day
  )
  SELECT to_char(d, 'YYYY-MM-DD') AS day, coalesce(r.paid, 0)::int AS paid, round(coalesce(r.mrr, 0))::int AS mrr,
    coalesce(a.started, 0)::int AS started, coalesce(a.cancelled, 0)::int AS cancelled
  FROM generate_series(CAST(:from AS date), CAST(:to AS date), interval '1 day') AS d
  LEFT JOIN days a ON a.day = d::date
  LEFT JOIN LATERAL (SELECT paid, mrr FROM days WHERE day <= d::date ORDER BY day DESC LIMIT 1) r ON true
  ORDER BY d`;

/** Paying members, MRR, and paid memberships begun and ended, per day of a range. */
export async function memberSeries(db: Db, range: Range): Promise<MemberDay[]> {
  return (await db.raw(MEMBER_DAYS_SQL, range)).rows;
}

export type SignupSource = { id: number; title: string; signups: number };

/** The posts that paid sign-ups of a range are credited to (the paywall or the post read last), most first. */
export async function signupSources(db: Db, range: Range, limit = 10): Promise<SignupSource[]> {
  const rows = await db.raw(
    `SELECT p.id, p.title, count(*)::int AS signups
     FROM membership_events e JOIN posts p ON p.id = e.source_post_id
     WHERE e.created_at >= CAST(:from AS date)::timestamp AT TIME ZONE 'UTC'
       AND e.created_at < (CAST(:to AS date) + 1)::timestamp AT TIME ZONE 'UTC'
     GROUP BY p.id, p.title ORDER BY signups DESC, p.id DESC LIMIT :limit`,
    { ...range, limit },
  );
  return rows.rows;
}

/** How many paid memberships began, and how many ended, in the last `days` (today included). */
export async function memberFlows(db: Db, days = 30): Promise<MemberFlows> {
  const series = await memberSeries(db, lastDays(days));
  return {
    days,
    started: series.reduce((n, d) => n + d.started, 0),
    cancelled: series.reduce((n, d) => n + d.cancelled, 0),
  };
}
