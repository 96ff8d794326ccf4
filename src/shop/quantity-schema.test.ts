import { describe, expect, it } from 'vitest';
import { MAX_PER_LINE, maxQuantity, quantitySchema } from './quantity-schema.ts';

describe('quantitySchema', () => {
  it('takes a whole number from 1 to the maximum, typed or sent as JSON', () => {
    expect(quantitySchema(5).parse(' 3 ')).toBe(3);
    expect(quantitySchema(5).parse(5)).toBe(5);
  });

  it('refuses anything else with one message naming the range', () => {
    for (const value of ['-5', '1e3', 'abc', '2.5', '0', '6', '', '99999999999999999999', 2.5, 0, null]) {
      const parsed = quantitySchema(5).safeParse(value);
      expect(parsed.success, String(value)).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message)).toEqual(['Enter a quantity between 1 and 5']);
    }
  });

  it('caps a line at the stock, or at MAX_PER_LINE when the stock is unlimited', () => {
    expect(maxQuantity(3)).toBe(3);
    expect(maxQuantity(null)).toBe(MAX_PER_LINE);
    expect(maxQuantity(MAX_PER_LINE * 2)).toBe(MAX_PER_LINE);
  });
});
