/**
 * The membership rules in SQL over `memberships as m`, below every area: identity reads a
 * session's access with them, blog chooses a newsletter's recipients with them (ADR 025).
 */

/** A member whose card failed keeps reading this long while Stripe retries (ADR 025). */
export const PAST_DUE_GRACE_DAYS = 7;
/**
 * A paid period is honoured this long past its end: Stripe pays a renewal an hour or so after the
 * period ends, and its events may come later still (ADR 025).
 */
export const RENEWAL_SLACK_HOURS = 48;

/**
 * The status that holds now, in SQL over `memberships as m`: a period, a comp or a grace period
 * that has run out is free, whatever event is still to come.
 */
export const EFFECTIVE_STATUS_SQL = `CASE
  WHEN m.status = 'paid' AND (m.current_period_end IS NULL
    OR m.current_period_end > now() - interval '${RENEWAL_SLACK_HOURS} hours') THEN 'paid'
  WHEN m.status = 'comped' AND (m.comped_until IS NULL OR m.comped_until > now()) THEN 'comped'
  WHEN m.status = 'past_due' AND m.past_due_since > now() - interval '${PAST_DUE_GRACE_DAYS} days' THEN 'past_due'
  ELSE 'free' END`;

/** The tier whose posts the member reads now (paid, comped or past due in its grace), or null. */
export const PAID_TIER_SQL = `CASE WHEN (${EFFECTIVE_STATUS_SQL}) = 'free' THEN NULL ELSE m.tier_id END`;
