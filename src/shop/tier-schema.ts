import { z } from '../zod.ts';

/** The words of the tiers, shared by the admin form, the API and the tests. */
export const TIER_MESSAGES = {
  nameRequired: 'A tier needs a name',
  priceInvalid: 'Prices are whole cents above zero',
  notFound: 'Tier not found',
  tooMany: 'At most 5 tiers can be active: archive one first',
  inUse: 'Members belong to this tier: archive it instead',
  created: 'Tier created',
  saved: 'Tier saved',
  archived: 'Tier archived',
};

/** A few tiers keep the choice readable (Ghost's advice too). */
export const MAX_ACTIVE_TIERS = 5;

const cents = z.coerce
  .number({ error: TIER_MESSAGES.priceInvalid })
  .int(TIER_MESSAGES.priceInvalid)
  .min(1, TIER_MESSAGES.priceInvalid)
  .max(10_000_000, TIER_MESSAGES.priceInvalid);

/** The one schema of a tier: the admin form, `POST`/`PUT /api/admin/tiers` and the client share it. */
export const tierSchema = z.object({
  name: z.string({ error: TIER_MESSAGES.nameRequired }).trim().min(1, TIER_MESSAGES.nameRequired).max(100),
  description: z.string().trim().max(1_000).default(''),
  monthlyPrice: cents,
  yearlyPrice: cents,
  active: z.boolean().default(true),
});

export type TierInput = z.output<typeof tierSchema>;
