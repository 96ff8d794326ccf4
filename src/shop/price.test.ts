import { expect, it } from 'vitest';
import { formatPrice, isCentsCurrency } from './price.ts';

it('formats integer cents in the shop’s currency with two decimals', () => {
  expect(formatPrice(2999, 'usd')).toBe('$29.99');
  expect(formatPrice(0, 'usd')).toBe('$0.00');
  expect(formatPrice(123456789, 'usd')).toBe('$1,234,567.89');
  expect(formatPrice(2999, 'eur')).toBe('€29.99');
  expect(formatPrice(2999, 'gbp')).toBe('£29.99');
});

it('takes lowercase ISO 4217 codes whose prices have cents', () => {
  expect(['usd', 'eur', 'gbp', 'chf'].every(isCentsCurrency)).toBe(true);
  // Not a currency, not lowercase as Stripe writes it, or no cents to store prices in.
  expect(['usx', 'USD', 'dollar', 'jpy', ''].some(isCentsCurrency)).toBe(false);
});
