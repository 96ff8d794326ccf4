import { z } from '../zod.ts';

export const BILLING_INTERVALS = ['month', 'year'] as const;

/** A path on this site to come back to (the post a reader subscribed from), never another host. */
const returnPath = z
  .string()
  .max(500)
  .regex(/^\/(?![/\\])[^\s]*$/)
  .optional()
  .catch(undefined);

/** The one schema of a subscription: the /membership form, the paywall's and the API. */
export const subscribeSchema = z.object({
  tierId: z.coerce.number({ error: 'Choose a tier' }).int('Choose a tier').positive('Choose a tier'),
  interval: z.enum(BILLING_INTERVALS, { error: 'Choose monthly or yearly' }),
  returnTo: returnPath,
});
export type SubscribeInput = z.output<typeof subscribeSchema>;

/** A complimentary membership: `POST /api/admin/members/:userId?action=comp`. */
export const compSchema = z.object({
  tierId: z.coerce.number({ error: 'Choose a tier' }).int('Choose a tier').positive('Choose a tier'),
  until: z.coerce
    .date({ error: 'The end date must be a date' })
    .refine((d) => d.getTime() > Date.now(), 'The end date must be in the future')
    .optional(),
});
export type CompInput = z.output<typeof compSchema>;
