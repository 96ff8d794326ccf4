/** The shop's one currency, as Stripe names it: prices are stored in its cents. */
export const SHOP_CURRENCY = 'usd';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** The one place cents become dollars: 2999 → "$29.99". */
export function formatPrice(cents: number): string {
  return usd.format(cents / 100);
}
