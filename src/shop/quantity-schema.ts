import { z } from '../zod.ts';

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
 * The one quantity schema (cart and product page, in the browser and on the server): a whole
 * number typed in a form ("3") or sent as JSON (3), from 1 to `max`. Anything else is refused,
 * never read as a number near it ("2.5", "1e3", "abc", "-5").
 */
export function quantitySchema(max: number) {
  const message = quantityMessage(max);
  return z
    .union(
      [
        z.number(message),
        z
          .string(message)
          .trim()
          .regex(/^\d{1,9}$/, message)
          .transform(Number),
      ],
      message,
    )
    .pipe(z.number(message).int(message).min(1, message).max(max, message));
}
