import { EFFECTIVE_STATUS_SQL } from '../db/membership-sql.ts';
import { z } from '../zod.ts';

/** Who a post's newsletter goes to: every subscriber, free members, or paid members (of a tier). */
export const newsletterAudienceSchema = z.object({
  audience: z.enum(['all', 'free', 'paid'], { error: 'audience must be all, free or paid' }).default('all'),
  tierId: z.coerce.number().int().positive().optional(),
});
export type NewsletterAudience = z.output<typeof newsletterAudienceSchema>;

/**
 * The confirmed subscribers of a newsletter's audience (`n` the newsletter), in SQL. A subscriber
 * is a member when an account has the same address: free members are those without paid access
 * (and subscribers with no account), paid members those with it.
 */
export const AUDIENCE_RECIPIENTS_SQL = `
  SELECT s.id FROM newsletter_subscribers s
  LEFT JOIN users u ON lower(u.email) = lower(s.email)
  LEFT JOIN memberships m ON m.user_id = u.id
  WHERE s.status = 'confirmed' AND CASE n.audience
    WHEN 'all' THEN true
    WHEN 'free' THEN coalesce((${EFFECTIVE_STATUS_SQL}), 'free') = 'free'
    ELSE coalesce((${EFFECTIVE_STATUS_SQL}), 'free') <> 'free'
      AND (n.audience_tier IS NULL OR m.tier_id = n.audience_tier)
  END`;

/**
 * Whether a newsletter mails a post whole, in SQL (`p` the post, `n` its newsletter): a public
 * post always; a members post to members; a paid post to paid members of a tier that reads it.
 * Anything else is mailed as its public preview.
 */
export const MAILED_WHOLE_SQL = `(p.visibility = 'public'
  OR (p.visibility = 'members' AND n.audience IN ('free', 'paid'))
  OR (p.visibility = 'paid' AND n.audience = 'paid'
    AND (p.visibility_tiers = '{}' OR n.audience_tier = ANY(p.visibility_tiers))))`;
