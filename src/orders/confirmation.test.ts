import { describe, expect, it } from 'vitest';
import { confirmationWithPayment } from './confirmation.ts';

const mail = {
  to: 'buyer@example.com',
  subject: 'Order #7 confirmed',
  text: 'Hello Ada,\nThank you for your order #7.\nTotal: $50.00',
  html: '<p>Hello Ada,</p><p>Total: $50.00</p>',
};

describe('the confirmation of an order still to be paid', () => {
  it.each([
    ['card payment', { mode: 'stripe', orderUrl: 'https://shop.example/orders/7' }, 'Complete your payment'],
    [
      'manual payment',
      { mode: 'manual', instructions: 'Bank transfer', orderUrl: 'https://shop.example/orders/7' },
      'How to pay',
    ],
  ] as const)('greets and sums up the order before how to pay (%s)', (_mode, guidance, payment) => {
    const paying = confirmationWithPayment(mail, 7, guidance);
    expect(paying.text.indexOf(payment)).toBeGreaterThan(paying.text.indexOf('Total: $50.00'));
    expect(paying.text.startsWith('Hello Ada,')).toBe(true);
    expect(paying.html?.startsWith('<p>Hello Ada,</p>')).toBe(true);
    expect(paying.html).toContain(payment);
  });
});
