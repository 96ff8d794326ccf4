import { describe, expect, it } from 'vitest';
import { MAX_PER_LINE, maxQuantity, readQuantity } from './quantity.ts';

describe('readQuantity', () => {
  it('takes a whole number from 1 to the maximum, typed or sent as JSON', () => {
    expect(readQuantity(' 3 ', 5)).toEqual({ quantity: 3 });
    expect(readQuantity(5, 5)).toEqual({ quantity: 5 });
  });

  it('refuses anything else with one message naming the range', () => {
    for (const value of ['-5', '1e3', 'abc', '2.5', '0', '6', '', '99999999999999999999', 2.5, 0, 1e20, null])
      expect(readQuantity(value, 5), String(value)).toEqual({ error: 'Enter a quantity between 1 and 5' });
  });

  it('caps a line at the stock, or at MAX_PER_LINE when the stock is unlimited', () => {
    expect(maxQuantity(3)).toBe(3);
    expect(maxQuantity(null)).toBe(MAX_PER_LINE);
    expect(maxQuantity(MAX_PER_LINE * 2)).toBe(MAX_PER_LINE);
  });
});
