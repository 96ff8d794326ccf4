import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { Invalid, NotFound } from '../kernel/errors.ts';
import { updateShopSettings } from '../settings/settings.ts';
import { z } from '../zod.ts';
import { countryCodeOf } from './countries.ts';
import { PRODUCT_CATEGORIES } from './product-enums.ts';
import { STRIPE_TAX_SQL } from './tax-note.ts';
import { TAX_MESSAGES, type TaxRate, type TaxSettings } from './tax-rules.ts';

type Executor = Db | Knex.Transaction;
type Row = { id: number; country: string; category: string | null; rate_hundredths: number; name: string };

/** The rates, by country then category (the country's own rate first). */
export function taxRatesQuery(db: Executor) {
  return db('tax_rates')
    .orderBy([{ column: 'country' }, { column: 'category', order: 'asc', nulls: 'first' }])
    .select('id', 'country', 'category', 'rate_hundredths', 'name');
}

export function toTaxRate(row: Row): TaxRate {
  return {
    id: row.id,
    country: row.country,
    category: row.category,
    rate: row.rate_hundredths / 100,
    name: row.name,
  };
}

export async function listTaxRates(db: Executor): Promise<TaxRate[]> {
  return ((await taxRatesQuery(db)) as Row[]).map(toTaxRate);
}

/** One rate, from the API (JSON) or the settings form (text): the one schema of both. */
export const taxRateSchema = z.object(
  {
    country: z
      .string(TAX_MESSAGES.country)
      .max(100, TAX_MESSAGES.country)
      .transform((text, ctx) => {
        const code = countryCodeOf(text);
        if (!code) ctx.addIssue({ code: 'custom', message: TAX_MESSAGES.country });
        return code ?? z.NEVER;
      }),
    // A number from the API, the typed text from the form.
    rate: z
      .union(
        [
          z.number(),
          z
            .string()
            .trim()
            .regex(/^\d{1,3}(\.\d{1,2})?$/, TAX_MESSAGES.rate)
            .transform(Number),
        ],
        TAX_MESSAGES.rate,
      )
      .refine((n) => n >= 0 && n <= 100 && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, TAX_MESSAGES.rate),
    name: z.string(TAX_MESSAGES.name).trim().min(1, TAX_MESSAGES.name).max(50, TAX_MESSAGES.name),
    category: z
      .union(
        [z.enum(PRODUCT_CATEGORIES, TAX_MESSAGES.category), z.literal(''), z.null()],
        TAX_MESSAGES.category,
      )
      .optional()
      .transform((category) => category || null),
  },
  'Request body must be a JSON object.',
);
export type TaxRateInput = z.output<typeof taxRateSchema>;

/** Adds a rate; a second rate for the same country and category is refused. */
export async function addTaxRate(db: Db, input: TaxRateInput): Promise<TaxRate> {
  try {
    const [row] = await db('tax_rates')
      .insert({
        country: input.country,
        category: input.category,
        rate_hundredths: Math.round(input.rate * 100),
        name: input.name,
      })
      .returning(['id', 'country', 'category', 'rate_hundredths', 'name']);
    return toTaxRate(row);
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw new Invalid(TAX_MESSAGES.taken);
    throw error;
  }
}

export async function deleteTaxRate(db: Db, id: number): Promise<void> {
  if ((await db('tax_rates').where({ id }).delete()) === 0) throw new NotFound(TAX_MESSAGES.notFound);
}

/** Whether the prices the writer enters include tax (then shown prices do, and the tax is a part of them). */
export async function pricesIncludeTax(db: Executor): Promise<boolean> {
  const row = await db('blog_settings').where({ id: 1 }).first('prices_include_tax');
  return row?.prices_include_tax ?? false;
}

/** The tax an order is charged: Penstand's rates, or none of them when Stripe Tax calculates it. */
export function taxSettingsFrom(read: {
  rates: TaxRate[];
  included: boolean;
  stripeTax: boolean;
  cardPayments: boolean;
}): TaxSettings {
  if (read.stripeTax && read.cardPayments) return { rates: [], included: read.included, byStripe: true };
  return { rates: read.rates, included: read.included };
}

/** The tax settings an order is placed with (see taxSettingsFrom). */
export async function taxSettingsOf(db: Executor, opts: { cardPayments: boolean }): Promise<TaxSettings> {
  return taxSettingsFrom({
    rates: await listTaxRates(db),
    included: await pricesIncludeTax(db),
    stripeTax: await stripeTaxOn(db),
    cardPayments: opts.cardPayments,
  });
}

/** Whether the writer turned Stripe Tax on (it applies only with card payments through Stripe). */
export async function stripeTaxOn(db: Executor): Promise<boolean> {
  const { rows } = await db.raw(`SELECT ${STRIPE_TAX_SQL} AS stripe_tax`);
  return rows[0].stripe_tax;
}

/** The Tax settings form: checkboxes, absent when unticked. */
const checkbox = z
  .literal(['on', ''])
  .optional()
  .transform((value) => value === 'on');
export const taxSettingsSchema = z.object({ pricesIncludeTax: checkbox, stripeTax: checkbox });

/** Saves the Tax settings; Stripe Tax is refused without Stripe keys (there is no Checkout to calculate it). */
export async function updateTaxSettings(
  db: Db,
  input: z.output<typeof taxSettingsSchema>,
  opts: { cardPayments: boolean },
): Promise<void> {
  if (input.stripeTax && !opts.cardPayments) throw new Invalid(TAX_MESSAGES.stripeTaxNeedsKeys);
  await updateShopSettings(db, { prices_include_tax: input.pricesIncludeTax, stripe_tax: input.stripeTax });
}
