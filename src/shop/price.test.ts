import { expect, it } from 'vitest';
import { formatPrice } from './price.ts';

it('formats integer cents as US dollars with two decimals', () => {
  expect(formatPrice(2999)).toBe('$29.99');
  expect(formatPrice(0)).toBe('$0.00');
  expect(formatPrice(123456789)).toBe('$1,234,567.89');
});
