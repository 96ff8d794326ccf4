import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/kernel/errors.ts';
import { executeOrderCommand } from '../../src/orders/changes.ts';
import { getOrderWithHistory, listOrders } from '../../src/orders/lists.ts';
import { httpStatusOf } from '../../src/server/error-status.ts';
import { stockOf } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { refusal } from '../support/refusal.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

async function placeOrder(stock: number | null, quantity: number) {
  const product = await createProductRow(app.services.db, { stock, price: 700, name: 'Sticker pack' });
  const guest = new GuestClient(app);
  await guest.add(product.id, quantity);
  const placed = await guest.checkout(validCheckout);
  expect(placed.status).toBe(201);
  return { orderId: placed.body.id as number, productId: product.id };
}

describe('order commands for the admin area', () => {
  it('pays, ships and delivers; refuses what decide() refuses; keeps the history', async () => {
    const { db } = app.services;
    const { orderId } = await placeOrder(10, 2);
    expect(
      (await refusal(executeOrderCommand(db, orderId, { type: 'ShipOrder', trackingNumber: 'T1' }))).status,
    ).toBe(409);
    expect(
      await executeOrderCommand(db, orderId, { type: 'RecordPayment' }, { by: 'admin:1' }),
    ).toMatchObject({
      status: 'processing',
      paymentStatus: 'paid',
    });
    expect(
      (await refusal(executeOrderCommand(db, orderId, { type: 'ShipOrder', trackingNumber: ' ' }))).status,
    ).toBe(422);
    await executeOrderCommand(db, orderId, { type: 'ShipOrder', trackingNumber: 'TRACK-9' });
    const delivered = await executeOrderCommand(db, orderId, { type: 'MarkDelivered' });
    expect(delivered).toMatchObject({ status: 'delivered', trackingNumber: 'TRACK-9', version: 4 });
    expect(await refusal(executeOrderCommand(db, orderId, { type: 'CancelOrder' }))).toEqual({
      status: 409,
      message: 'An order that is delivered cannot be cancelled.',
    });
    const history = await getOrderWithHistory(db, orderId);
    expect(history?.events.map((e) => e.type)).toEqual([
      'OrderPlaced',
      'PaymentSucceeded',
      'OrderShipped',
      'OrderDelivered',
    ]);
    expect(history?.events[1].metadata).toEqual({ by: 'admin:1' });
    expect(history?.items).toEqual([
      {
        id: expect.any(Number),
        productId: expect.any(Number),
        productName: 'Sticker pack',
        variant: null,
        quantity: 2,
        priceAtTime: 700,
        taxAmount: 0,
      },
    ]);
    expect(await getOrderWithHistory(db, 987654)).toBeNull();
    expect((await refusal(executeOrderCommand(db, 987654, { type: 'RecordPayment' }))).status).toBe(404);
  });

  it('releases reserved stock on cancel, leaves unlimited stock alone, and keeps orders of deleted products', async () => {
    const { db } = app.services;
    const limited = await placeOrder(5, 3);
    expect(await stockOf(db, limited.productId)).toBe(2);
    await executeOrderCommand(db, limited.orderId, { type: 'CancelOrder', reason: 'Customer asked' });
    expect(await stockOf(db, limited.productId)).toBe(5);

    const unlimited = await placeOrder(null, 4);
    await executeOrderCommand(db, unlimited.orderId, { type: 'CancelOrder' });
    expect(await stockOf(db, unlimited.productId)).toBeNull();

    await db('products').where({ id: unlimited.productId }).delete();
    const kept = await getOrderWithHistory(db, unlimited.orderId);
    expect(kept?.items[0]).toMatchObject({ productId: null, productName: 'Sticker pack', priceAtTime: 700 });
  });

  it('decides concurrent commands on one order against each other', async () => {
    const { db } = app.services;
    const { orderId } = await placeOrder(10, 1);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => executeOrderCommand(db, orderId, { type: 'RecordPayment' })),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((x) => x.status === 'rejected')) {
      expect((o as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
      expect(httpStatusOf((o as PromiseRejectedResult).reason)).toBe(409);
    }
    expect(await db('order_events').where({ order_id: orderId, type: 'PaymentSucceeded' })).toHaveLength(1);
  });

  it('lists orders with status and search filters', async () => {
    const { db } = app.services;
    const all = await listOrders(db, { page: 1, limit: 50 });
    expect(all.pagination.total).toBeGreaterThanOrEqual(4);
    const cancelled = await listOrders(db, { status: 'cancelled', page: 1, limit: 50 });
    expect(cancelled.orders.every((o) => o.status === 'cancelled')).toBe(true);
    expect(cancelled.orders.length).toBe(2);
    const byEmail = await listOrders(db, { search: 'ada@', page: 1, limit: 2 });
    expect(byEmail.orders).toHaveLength(2);
    expect(byEmail.pagination.pages).toBeGreaterThanOrEqual(2);
  });
});
