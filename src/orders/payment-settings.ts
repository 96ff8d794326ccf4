import { z } from 'zod';
import type { Db } from '../db/knex.ts';
import { updateShopSettings } from '../settings/settings.ts';

export type PaymentSettings = {
  /** What a customer reads to pay by hand (manual mode): bank details, cash on delivery… */
  instructions: string;
  /** How long an unpaid order holds its stock. */
  holdMinutes: number;
};

/**
 * Until the writer sets one: an hour for card payments (WooCommerce's default), three days for
 * manual ones (a bank transfer takes a day or two; an expiry mail after an hour would be wrong).
 */
export const DEFAULT_HOLD_MINUTES = { card: 60, manual: 3 * 24 * 60 } as const;
/** Stripe Checkout sessions live at least 30 minutes; a bank transfer may need days. */
export const HOLD_MINUTES_RANGE = { min: 30, max: 43_200 } as const;

type PaymentSettingsRow = { payment_instructions: string | null; payment_hold_minutes: number | null };

export function paymentSettingsQuery(db: Db) {
  return db('blog_settings').where({ id: 1 }).select('payment_instructions', 'payment_hold_minutes');
}

/** The settings of the row (none yet: the defaults) for the payment mode. */
export function toPaymentSettings(
  row: PaymentSettingsRow | null | undefined,
  mode: { cardPayments: boolean },
): PaymentSettings {
  return {
    instructions: row?.payment_instructions ?? '',
    holdMinutes: row?.payment_hold_minutes ?? DEFAULT_HOLD_MINUTES[mode.cardPayments ? 'card' : 'manual'],
  };
}

export async function paymentSettings(db: Db, mode: { cardPayments: boolean }): Promise<PaymentSettings> {
  const [row]: PaymentSettingsRow[] = await paymentSettingsQuery(db);
  return toPaymentSettings(row, mode);
}

export const PAYMENT_SETTINGS_MESSAGES = {
  saved: 'Payment settings saved',
  holdMinutes: `Hold time must be a whole number of minutes from ${HOLD_MINUTES_RANGE.min} to ${HOLD_MINUTES_RANGE.max} (30 days)`,
  instructions: 'Payment instructions must be at most 2000 characters',
} as const;

/** The one schema of the Payments settings form. */
export const paymentSettingsSchema = z.object({
  paymentInstructions: z.string().trim().max(2000, PAYMENT_SETTINGS_MESSAGES.instructions),
  paymentHoldMinutes: z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, PAYMENT_SETTINGS_MESSAGES.holdMinutes)
    .transform(Number)
    .refine(
      (n) => n >= HOLD_MINUTES_RANGE.min && n <= HOLD_MINUTES_RANGE.max,
      PAYMENT_SETTINGS_MESSAGES.holdMinutes,
    ),
});

export async function updatePaymentSettings(
  db: Db,
  input: z.output<typeof paymentSettingsSchema>,
): Promise<void> {
  await updateShopSettings(db, {
    payment_instructions: input.paymentInstructions,
    payment_hold_minutes: input.paymentHoldMinutes,
  });
}
