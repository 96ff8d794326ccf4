import { expect, it } from 'vitest';
import { isCentsCurrency } from '../currency.ts';
import { formatPrice, moneyInput, parseMoney } from './price.ts';

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

it('reads an amount typed in the currency as cents, and shows cents for editing', () => {
  expect(['12.50', '12.5', ' 12.50 ', '1,250', '0.99', '0'].map(parseMoney)).toEqual([
    1250, 1250, 1250, 125000, 99, 0,
  ]);
  for (const text of ['-1', '1.234', 'abc', '', '1e3', '12.', '99999999'])
    expect(parseMoney(text), text).toBeNull();
  expect([1250, 99, 0].map(moneyInput)).toEqual(['12.50', '0.99', '0.00']);
});
