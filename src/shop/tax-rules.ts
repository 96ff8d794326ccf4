/** Tax by country as checkout, the order and the settings compute it (no database here: client-safe). */

/** A rate of a country, for every product or for one category's (a reduced rate for books). */
export type TaxRate = {
  id: number;
  /** ISO 3166-1 code. */
  country: string;
  /** A product category; null: the country's rate for every other product. */
  category: string | null;
  /** Percent, at most two decimals (19, 7.7). */
  rate: number;
  /** What the tax line says: VAT, GST, Sales tax. */
  name: string;
};

/**
 * The rates, and whether the prices entered include tax; byStripe: Stripe Tax calculates the tax
 * when the customer pays (no rates of Penstand's apply).
 */
export type TaxSettings = { rates: TaxRate[]; included: boolean; byStripe?: boolean };

/** What the shop says of tax beside a price: a part of it, added at checkout, or nothing (no tax charged). */
export type TaxNote = 'included' | 'added' | null;

/** One line's tax: its rate (percent) and name as applied, and its amount in cents. */
export type LineTax = { rate: number; name: string; amount: number };

export const TAX_MESSAGES = {
  country: 'Choose a country from the list',
  rate: 'Rate must be a percentage from 0 to 100 with at most two decimals',
  name: 'Name must be 1 to 50 characters',
  category: 'Category must be one of the shop’s categories',
  taken: 'This country already has a rate for this category',
  notFound: 'Tax rate not found',
  added: 'Tax rate added',
  deleted: 'Tax rate removed',
  saved: 'Tax settings saved',
  stripeTaxNeedsKeys: 'Stripe Tax needs card payments through Stripe: set STRIPE_SECRET_KEY first',
} as const;

/** The rate of a product of this category in this country: its category's, else the country's, else none. */
export function taxRateFor(rates: TaxRate[], country: string, category: string | null): TaxRate | null {
  const ofCountry = rates.filter((r) => r.country === country);
  return (
    ofCountry.find((r) => r.category !== null && r.category === category) ??
    ofCountry.find((r) => r.category === null) ??
    null
  );
}

/** n / d rounded half up, for whole n ≥ 0 and d > 0 (exact: no floating point). */
export function divideHalfUp(n: number, d: number): number {
  return Math.floor((2 * n + d) / (2 * d));
}

/** A rate's percent in hundredths (7.7 → 770), exact for two decimals. */
const hundredths = (rate: number) => Math.round(rate * 100);

/**
 * The tax in a line's amount (cents), rounded half up per line: added on top of a price entered
 * without tax, or the part of a price entered with tax that is tax.
 */
export function lineTax(amount: number, rate: number, included: boolean): number {
  const h = hundredths(rate);
  return included ? amount - divideHalfUp(amount * 10_000, 10_000 + h) : divideHalfUp(amount * h, 10_000);
}

/**
 * Splits a discount over the lines by their amounts (whole cents, summing to it exactly): each
 * line its share rounded down, the cents left to the lines with the largest remainders.
 */
export function shareOut(total: number, amounts: number[]): number[] {
  const sum = amounts.reduce((n, a) => n + a, 0);
  if (sum === 0 || total === 0) return amounts.map(() => 0);
  const shares = amounts.map((a) => Math.floor((a * total) / sum));
  let left = total - shares.reduce((n, s) => n + s, 0);
  const byRemainder = amounts
    .map((a, i) => ({ i, remainder: (a * total) % sum }))
    .sort((x, y) => y.remainder - x.remainder || x.i - y.i);
  for (const { i } of byRemainder) {
    if (left === 0) break;
    shares[i] += 1;
    left -= 1;
  }
  return shares;
}

/**
 * Each line's tax for an order to the country: on the line's amount after its share of the
 * discount. Shipping is not taxed. Null for a line no rate applies to.
 */
export function orderLineTaxes(input: {
  rates: TaxRate[];
  country: string;
  included: boolean;
  lines: { amount: number; category: string | null }[];
  discount: number;
}): (LineTax | null)[] {
  const discounts = shareOut(
    input.discount,
    input.lines.map((l) => l.amount),
  );
  return input.lines.map((line, i) => {
    const rate = taxRateFor(input.rates, input.country, line.category);
    if (!rate) return null;
    return {
      rate: rate.rate,
      name: rate.name,
      amount: lineTax(line.amount - discounts[i], rate.rate, input.included),
    };
  });
}

/** What the order's total adds for tax: nothing when prices include it. */
export function taxAdded(tax: number, included: boolean): number {
  return included ? 0 : tax;
}

/** The rates an order's lines were taxed at, as its tax line names them ("VAT 19%, VAT 7%"). */
export function taxLabel(lines: { tax?: LineTax }[]): string {
  const rates = lines.flatMap((line) => (line.tax ? [`${line.tax.name} ${line.tax.rate}%`] : []));
  return [...new Set(rates)].join(', ');
}
