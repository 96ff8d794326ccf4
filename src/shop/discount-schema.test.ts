import { describe, expect, it } from 'vitest';
import { DISCOUNT_MESSAGES, discountAmount, discountSchema } from './discount-schema.ts';

const lines = [
  { productId: 1, category: 'Books', quantity: 2, unitPrice: 1250 },
  { productId: 2, category: 'Merchandise', quantity: 1, unitPrice: 999 },
];
const rule = { type: 'percent' as const, value: 10, minSubtotal: 0, productIds: null, categories: null };

describe('discountAmount', () => {
  it('takes a rounded percentage, or a fixed amount up to what it applies to', () => {
    expect(discountAmount(rule, lines, 'usd')).toEqual({ amount: 350 });
    expect(discountAmount({ ...rule, categories: ['Books'] }, lines, 'usd')).toEqual({ amount: 250 });
    expect(discountAmount({ ...rule, productIds: [2] }, lines, 'usd')).toEqual({ amount: 100 });
    expect(discountAmount({ ...rule, type: 'fixed', value: 5000, productIds: [2] }, lines, 'usd')).toEqual({
      amount: 999,
    });
  });

  it('refuses a cart under the minimum, or without a line it applies to', () => {
    expect(discountAmount({ ...rule, minSubtotal: 3500 }, lines, 'usd')).toEqual({
      error: DISCOUNT_MESSAGES.minSubtotal('$35.00'),
    });
    expect(discountAmount({ ...rule, categories: ['Courses'] }, lines, 'usd')).toEqual({
      error: DISCOUNT_MESSAGES.notApplicable,
    });
  });
});

describe('discountSchema', () => {
  it('reads the admin form’s text and the API’s JSON alike', () => {
    const fromForm = discountSchema.parse({
      code: 'SPRING',
      type: 'fixed',
      value: '500',
      usageLimit: '',
      perEmailLimit: '1',
      startsAt: '2026-03-01T09:00',
      endsAt: '',
      minSubtotal: '',
      productIds: '3, 4',
      categories: '',
    });
    const fromJson = discountSchema.parse({
      code: 'SPRING',
      type: 'fixed',
      value: 500,
      perEmailLimit: 1,
      startsAt: '2026-03-01T09:00:00Z',
      productIds: [3, 4],
    });
    expect(fromForm).toEqual(fromJson);
    expect(fromForm).toMatchObject({
      usageLimit: null,
      startsAt: '2026-03-01T09:00:00.000Z',
      minSubtotal: 0,
    });
  });
});
