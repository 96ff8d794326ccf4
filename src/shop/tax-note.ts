import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { TaxNote } from './tax-rules.ts';

// Apart from tax.ts: product and cart routes read the note in their loaders, and tax.ts (zod, the
// country list) would otherwise stay in those pages' browser bundles.

/** The writer's Stripe Tax switch, in SQL (it applies only with card payments through Stripe). */
export const STRIPE_TAX_SQL = 'coalesce((SELECT stripe_tax FROM blog_settings WHERE id = 1), false)';

/** What product pages and the cart say of tax: nothing until a rate exists (or Stripe Tax), then whether prices include it. */
export async function taxNoteOf(
  db: Db | Knex.Transaction,
  opts: { cardPayments: boolean },
): Promise<TaxNote> {
  const { rows } = await db.raw(
    `SELECT coalesce((SELECT prices_include_tax FROM blog_settings WHERE id = 1), false) AS included,
            EXISTS (SELECT 1 FROM tax_rates) OR (${STRIPE_TAX_SQL} AND ?) AS taxed`,
    [opts.cardPayments],
  );
  const [{ included, taxed }] = rows as { included: boolean; taxed: boolean }[];
  if (!taxed) return null;
  return included ? 'included' : 'added';
}
