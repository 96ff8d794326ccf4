/** The most of one product a cart line holds when its stock is unlimited. */
export const MAX_PER_LINE = 10_000;

export function quantityMessage(max: number): string {
  return `Enter a quantity between 1 and ${max}`;
}

/** The largest quantity a line of a product with this stock (null: unlimited) may hold. */
export function maxQuantity(stock: number | null): number {
  return stock === null ? MAX_PER_LINE : Math.min(stock, MAX_PER_LINE);
}

/**
 * The one quantity rule (product page, cart page, /api/cart; in the browser and on the server):
 * a whole number typed in a form ("3") or sent as JSON (3), from 1 to `max`. Anything else is
 * refused, never read as a number near it ("2.5", "1e3", "abc", "-5"). Plain code, not zod, in a
 * file not named *schema*: it joins the shared chunk and the product page's first load stays
 * without zod (vite.config.ts, tests/integration/client-bundles.test.ts).
 */
export function readQuantity(value: unknown, max: number): { quantity: number } | { error: string } {
  const text = typeof value === 'string' ? value.trim() : null;
  const quantity =
    typeof value === 'number' ? value : text !== null && /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  return Number.isInteger(quantity) && quantity >= 1 && quantity <= max
    ? { quantity }
    : { error: quantityMessage(max) };
}
