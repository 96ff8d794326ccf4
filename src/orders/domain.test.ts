import { describe, expect, it } from 'vitest';
import { AppError } from '../kernel/errors.ts';
import { httpStatusOf } from '../server/error-status.ts';
import {
  adminCommandOptions,
  decide,
  ERASED_CUSTOMER,
  evolve,
  fold,
  holdsDiscountUse,
  initialOrderState,
  type OrderPlacedData,
  stripeTaxMismatch,
} from './domain.ts';

const placed: OrderPlacedData = {
  userId: null,
  sessionId: 's',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: null,
  address: '12 Analytical Street',
  city: 'London',
  postalCode: '12345',
  country: 'UK',
  shippingMethod: 'standard',
  notes: null,
  idempotencyKey: null,
  items: [{ lineId: 1, productId: 7, productName: 'Book', quantity: 2, priceAtTime: 1500 }],
  totalAmount: 3000,
};

function run(...commands: Parameters<typeof decide>[1][]) {
  let state = initialOrderState;
  for (const command of commands) state = decide(state, command).reduce(evolve, state);
  return state;
}

function refusal(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return { status: httpStatusOf(error), message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('order rules', () => {
  it('takes Stripe Tax’s amount once, from the order’s own session, on top of the total or inside it', () => {
    const request = {
      type: 'RequestPayment' as const,
      checkoutSessionId: 'cs_1',
      expiresAt: '2099-01-01T00:00:00Z',
    };
    const open = run({ type: 'PlaceOrder', order: { ...placed, stripeTax: true } }, request);
    const report = { sessionId: 'cs_1', calculated: true, subtotal: 3000, tax: 300 };
    expect(stripeTaxMismatch(open, report)).toBeNull();
    expect(stripeTaxMismatch(open, { ...report, sessionId: 'cs_other' })).toBe(
      'It was not made on a payment page opened for this order.',
    );
    expect(stripeTaxMismatch(open, { ...report, calculated: false })).toBe(
      'Stripe Tax did not calculate the tax of this payment.',
    );
    expect(stripeTaxMismatch(open, { ...report, subtotal: 2000 })).toBe(
      'Its items came to $20.00 before tax, not the order’s $30.00.',
    );
    const assessed = decide(open, { type: 'AssessTax', amount: 300, sessionId: 'cs_1' }).reduce(evolve, open);
    expect(assessed.placed).toMatchObject({ taxAmount: 300, totalAmount: 3300 });
    expect(refusal(() => decide(assessed, { type: 'AssessTax', amount: 300, sessionId: 'cs_1' }))).toEqual({
      status: 409,
      message: 'This order’s tax has already been set.',
    });
    const included = run(
      { type: 'PlaceOrder', order: { ...placed, stripeTax: true, taxIncluded: true } },
      request,
    );
    const inside = decide(included, { type: 'AssessTax', amount: 273, sessionId: 'cs_1' }).reduce(
      evolve,
      included,
    );
    expect(inside.placed).toMatchObject({ taxAmount: 273, totalAmount: 3000 });
    const own = run({ type: 'PlaceOrder', order: placed }, request);
    expect(refusal(() => decide(own, { type: 'AssessTax', amount: 300, sessionId: 'cs_1' }))).toEqual({
      status: 409,
      message: 'This order’s tax is not calculated by Stripe.',
    });
  });

  it('adds the lines’ tax to the total (or finds it inside prices with tax) and gives each refund its share', () => {
    const line = { ...placed.items[0], tax: { rate: 19, name: 'VAT', amount: 570 } };
    const taxed = { ...placed, items: [line], taxAmount: 570, totalAmount: 3570 };
    expect(
      refusal(() =>
        decide(initialOrderState, {
          type: 'PlaceOrder',
          order: { ...taxed, taxAmount: 500, totalAmount: 3500 },
        }),
      ),
    ).toEqual({ status: 422, message: 'The order’s tax does not match its lines.' });
    expect(
      refusal(() =>
        decide(initialOrderState, { type: 'PlaceOrder', order: { ...taxed, totalAmount: 3000 } }),
      ),
    ).toEqual({ status: 422, message: 'The order total does not match its lines.' });
    expect(
      run({ type: 'PlaceOrder', order: { ...taxed, taxIncluded: true, totalAmount: 3000 } }).placed,
    ).not.toBeNull();
    // 1/3 of 35.70 is 11.90, and its tax 1.90; the refund that completes the payment takes the rest.
    const state = run(
      { type: 'PlaceOrder', order: taxed },
      { type: 'RecordPayment' },
      { type: 'IssueRefund', amount: 1190, restock: false, refundId: null },
    );
    expect(state.refundedTax).toBe(190);
    const [last] = decide(state, { type: 'IssueRefund', amount: 2380, restock: false, refundId: null });
    expect(last.type === 'RefundIssued' && last.data.tax).toBe(380);
  });

  it('takes the discount off the lines: lines less discount plus shipping must make the total', () => {
    const discount = { discountId: 1, code: 'TEN', amount: 300 };
    const discounted = { ...placed, discount, totalAmount: 2700 };
    const state = run({ type: 'PlaceOrder', order: discounted });
    expect(state.placed?.discount).toEqual(discount);
    expect(holdsDiscountUse(state)).toBe(true);
    expect(
      refusal(() =>
        decide(initialOrderState, { type: 'PlaceOrder', order: { ...discounted, totalAmount: 3000 } }),
      ),
    ).toEqual({ status: 422, message: 'The order total does not match its lines.' });
    expect(
      refusal(() =>
        decide(initialOrderState, {
          type: 'PlaceOrder',
          order: { ...discounted, discount: { ...discount, amount: 3100 }, totalAmount: -100 },
        }),
      ).status,
    ).toBe(422);
  });

  it('gives a discount use back when the order expires or is cancelled unpaid, not when cancelled after payment', () => {
    const order = {
      ...placed,
      discount: { discountId: 1, code: 'TEN', amount: 300 },
      totalAmount: 2700,
      holdUntil: '2026-01-01T00:00:00.000Z',
    };
    const place = { type: 'PlaceOrder' as const, order };
    const expire = { type: 'ExpireOrder' as const, now: new Date('2026-01-02T00:00:00Z') };
    expect(holdsDiscountUse(run(place, expire))).toBe(false);
    // Paid after it expired, with its stock still there: the order and its use are back.
    expect(
      holdsDiscountUse(run(place, expire, { type: 'RecordPayment', method: 'stripe', stockReserved: true })),
    ).toBe(true);
    expect(holdsDiscountUse(run(place, { type: 'CancelOrder' }))).toBe(false);
    expect(holdsDiscountUse(run(place, { type: 'RecordPayment' }, { type: 'CancelOrder' }))).toBe(true);
    expect(holdsDiscountUse(run({ type: 'PlaceOrder', order: placed }))).toBe(false);
  });

  it('counts the shipping in the total: lines plus shipping must make it', () => {
    const shipped = { ...placed, shippingMethod: 'Express', shippingCost: 1500, totalAmount: 4500 };
    expect(run({ type: 'PlaceOrder', order: shipped }).placed?.shippingCost).toBe(1500);
    expect(
      refusal(() =>
        decide(initialOrderState, { type: 'PlaceOrder', order: { ...shipped, totalAmount: 3000 } }),
      ),
    ).toEqual({ status: 422, message: 'The order total does not match its lines.' });
    expect(
      refusal(() =>
        decide(initialOrderState, { type: 'PlaceOrder', order: { ...shipped, shippingCost: -1 } }),
      ),
    ).toEqual({ status: 422, message: 'The shipping cost must be a whole number of cents.' });
  });

  it('walks pending → processing → shipped → delivered', () => {
    const state = run(
      { type: 'PlaceOrder', order: placed },
      { type: 'RecordPayment' },
      { type: 'ShipOrder', trackingNumber: ' TRACK1 ' },
      { type: 'MarkDelivered' },
    );
    expect(state).toMatchObject({
      version: 4,
      status: 'delivered',
      paymentStatus: 'paid',
      trackingNumber: 'TRACK1',
    });
  });

  it('refuses transitions the state forbids with 409, unusable input with 422', () => {
    const pending = run({ type: 'PlaceOrder', order: placed });
    expect(refusal(() => decide(pending, { type: 'ShipOrder', trackingNumber: 'X' })).status).toBe(409);
    expect(refusal(() => decide(pending, { type: 'MarkDelivered' })).status).toBe(409);
    const paid = run({ type: 'PlaceOrder', order: placed }, { type: 'RecordPayment' });
    expect(refusal(() => decide(paid, { type: 'ShipOrder', trackingNumber: '  ' })).status).toBe(422);
    expect(refusal(() => decide(paid, { type: 'RecordPayment' })).status).toBe(409);
    expect(refusal(() => decide(pending, { type: 'PlaceOrder', order: placed })).status).toBe(409);
    expect(
      refusal(() => decide(initialOrderState, { type: 'PlaceOrder', order: { ...placed, totalAmount: 1 } }))
        .status,
    ).toBe(422);
    expect(refusal(() => decide(initialOrderState, { type: 'RecordPayment' })).status).toBe(404);
  });

  it('cancels pending or paid orders (refunding the paid), never shipped ones', () => {
    expect(
      run({ type: 'PlaceOrder', order: placed }, { type: 'CancelOrder', reason: 'changed mind' }),
    ).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'unpaid',
      cancelReason: 'changed mind',
    });
    expect(
      run({ type: 'PlaceOrder', order: placed }, { type: 'RecordPayment' }, { type: 'CancelOrder' })
        .paymentStatus,
    ).toBe('refunded');
    const shipped = run(
      { type: 'PlaceOrder', order: placed },
      { type: 'RecordPayment' },
      { type: 'ShipOrder', trackingNumber: 'T' },
    );
    expect(refusal(() => decide(shipped, { type: 'CancelOrder' })).message).toBe(
      'An order that is shipped cannot be cancelled.',
    );
  });

  it('records the confirmation mail once', () => {
    const sent = run(
      { type: 'PlaceOrder', order: placed },
      { type: 'RecordConfirmationSent', to: placed.email },
    );
    expect(sent.confirmationSent).toBe(true);
    expect(refusal(() => decide(sent, { type: 'RecordConfirmationSent', to: placed.email })).status).toBe(
      409,
    );
  });

  it('erases the customer once, keeping lines, amounts and the country', () => {
    const erased = run(
      { type: 'PlaceOrder', order: placed },
      { type: 'RecordPayment' },
      { type: 'EraseCustomerData' },
    );
    expect(erased.customerErased).toBe(true);
    expect(erased.placed).toEqual({ ...placed, ...ERASED_CUSTOMER });
    expect(erased.placed?.country).toBe(placed.country);
    expect(erased.paymentStatus).toBe('paid');
    expect(decide(erased, { type: 'EraseCustomerData' })).toEqual([]);
  });

  it("records a mail that was on its way while the customer was erased without the customer's address", () => {
    const erased = run(
      { type: 'PlaceOrder', order: placed },
      { type: 'RecordPayment' },
      { type: 'EraseCustomerData' },
    );
    expect(
      decide(erased, { type: 'RecordMailSent', kind: 'payment-received', key: 'payment', to: placed.email }),
    ).toEqual([{ type: 'OrderMailSent', data: { kind: 'payment-received', key: 'payment', to: '' } }]);
    // The confirmation too: its record may come after the erasure (the worker records in batches).
    expect(decide(erased, { type: 'RecordConfirmationSent', to: placed.email })).toEqual([
      { type: 'ConfirmationEmailSent', data: { to: '' } },
    ]);
  });

  it('folds a stream to the same state as stepwise evolution', () => {
    const events = [
      ...decide(initialOrderState, { type: 'PlaceOrder', order: placed }),
      { type: 'PaymentRecorded' as const, data: {} },
    ];
    expect(fold(events)).toEqual(run({ type: 'PlaceOrder', order: placed }, { type: 'RecordPayment' }));
  });
});

describe('adminCommandOptions', () => {
  it('offers what decide() accepts in each state, with its reason for the rest', () => {
    const pending = adminCommandOptions(run({ type: 'PlaceOrder', order: placed }));
    expect(pending.RecordPayment).toEqual({ allowed: true });
    expect(pending.CancelOrder).toEqual({ allowed: true });
    expect(pending.ShipOrder).toEqual({
      allowed: false,
      reason: 'Record the payment before shipping the order.',
    });
    expect(pending.MarkDelivered.allowed).toBe(false);

    const cancelled = adminCommandOptions(
      run({ type: 'PlaceOrder', order: placed }, { type: 'CancelOrder', reason: 'changed mind' }),
    );
    expect(Object.values(cancelled).every((o) => !o.allowed)).toBe(true);
    expect(cancelled.RecordPayment).toEqual({ allowed: false, reason: 'A cancelled order cannot be paid.' });

    const delivered = adminCommandOptions(
      run(
        { type: 'PlaceOrder', order: placed },
        { type: 'RecordPayment' },
        { type: 'ShipOrder', trackingNumber: 'T1' },
        { type: 'MarkDelivered' },
      ),
    );
    // A delivered order can still be refunded (a return), and nothing else.
    const allowed = Object.entries(delivered).filter(([, o]) => o.allowed);
    expect(allowed.map(([type]) => type)).toEqual(['IssueRefund']);
  });
});
