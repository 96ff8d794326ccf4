import { describe, expect, it } from 'vitest';
import { lineTax, orderLineTaxes, shareOut, taxLabel, taxRateFor } from './tax-rules.ts';

const rates = [
  { id: 1, country: 'DE', category: null, rate: 19, name: 'VAT' },
  { id: 2, country: 'DE', category: 'Books', rate: 7, name: 'VAT' },
  { id: 3, country: 'CH', category: null, rate: 8.1, name: 'MWST' },
];

describe('tax rules', () => {
  it("picks a category's rate before the country's, and none for a country without rates", () => {
    expect(taxRateFor(rates, 'DE', 'Books')?.rate).toBe(7);
    expect(taxRateFor(rates, 'DE', 'Merchandise')?.rate).toBe(19);
    expect(taxRateFor(rates, 'FR', 'Books')).toBeNull();
  });

  it('rounds each line half up in cents, on top of a price or inside it', () => {
    expect(lineTax(1000, 19, false)).toBe(190);
    // 50 × 1% = 0.5 cent: half up.
    expect(lineTax(50, 1, false)).toBe(1);
    expect(lineTax(49, 1, false)).toBe(0);
    // 8.1% of 1234 = 99.954 → 100; exact for two decimals.
    expect(lineTax(1234, 8.1, false)).toBe(100);
    // 11.90 with 19% in it: 10.00 and 1.90 of tax.
    expect(lineTax(1190, 19, true)).toBe(190);
    expect(lineTax(999, 7.7, true)).toBe(71);
  });

  it('shares a discount out over the lines by their amounts, to the cent', () => {
    expect(shareOut(100, [200, 100])).toEqual([67, 33]);
    expect(shareOut(1, [100, 100, 100])).toEqual([1, 0, 0]);
    expect(shareOut(0, [5, 5])).toEqual([0, 0]);
    const shares = shareOut(1001, [333, 333, 334]);
    expect(shares.reduce((n, s) => n + s, 0)).toBe(1001);
  });

  it('taxes each line after its share of the discount and names the rates applied', () => {
    const taxes = orderLineTaxes({
      rates,
      country: 'DE',
      included: false,
      lines: [
        { amount: 2000, category: 'Books' },
        { amount: 2000, category: 'Merchandise' },
      ],
      discount: 1000,
    });
    expect(taxes).toEqual([
      { rate: 7, name: 'VAT', amount: 105 },
      { rate: 19, name: 'VAT', amount: 285 },
    ]);
    expect(taxLabel(taxes.map((tax) => ({ tax: tax ?? undefined })))).toBe('VAT 7%, VAT 19%');
    expect(
      orderLineTaxes({
        rates,
        country: 'FR',
        included: false,
        lines: [{ amount: 100, category: null }],
        discount: 0,
      }),
    ).toEqual([null]);
  });
});
