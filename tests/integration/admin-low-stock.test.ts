import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder } from '../../src/checkout/place-order.ts';
import { executeOrderCommand } from '../../src/orders/changes.ts';
import { addToCart } from '../../src/shop/cart.ts';
import { setStock, stockOf } from '../../src/shop/stock.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../support/auth.ts';
import { startSmtpServer } from '../support/smtp.ts';

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ withWorker: true, env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

describe('low-stock alerts', () => {
  it('mails the admin once when stock falls to 10 or fewer, and once more at 0', async () => {
    const admin = await createUser(app, { role: 'admin' });
    const [product] = await app.services
      .db('products')
      .insert({ name: 'Enamel Pin', description: 'd', price: 900, category: 'Merchandise' })
      .returning('id');
    const stock = (value: number | null) => setStock(app.services.db, product.id, value);
    await stock(12);
    const subjects = () => smtp.messages.filter((m) => m.to.includes(admin.email)).map((m) => m.subject);

    await stock(11);
    await stock(8);
    await smtp.waitFor((m) => m.subject === 'Low stock: Enamel Pin (8 left)');
    await stock(5);
    await app.services.db('products').where({ id: product.id }).update({ name: 'Enamel Pin' });
    await stock(0);
    await smtp.waitFor((m) => m.subject === 'Out of stock: Enamel Pin');
    expect(subjects()).toEqual(['Low stock: Enamel Pin (8 left)', 'Out of stock: Enamel Pin']);
    // Unlimited stock never alerts: its change writes no alert to the outbox (counted in its own
    // transaction, before a relay could take the row).
    await app.services.db.transaction(async (trx) => {
      await setStock(trx, product.id, null);
      expect(
        await trx('outbox')
          .where({ job_name: 'maintenance.low-stock-alert', created_at: trx.fn.now() })
          .count('* as n'),
      ).toEqual([{ n: 0 }]);
    });
  });

  it('alerts when an order takes stock to 10, not again on cancelling, and again when a later order sells out', async () => {
    const admin = await createUser(app, { role: 'admin' });
    const { db } = app.services;
    const [product] = await db('products')
      .insert({ name: 'Letterpress Card', description: 'd', price: 500, category: 'Physical' })
      .returning('id');
    await setStock(db, product.id, 12);
    const buy = async (quantity: number, sessionId: string) => {
      const owner = { userId: null, sessionId };
      await addToCart(db, owner, product.id, quantity);
      const checkout = {
        customerName: 'Grace Hopper',
        customerEmail: 'grace@example.com',
        address: '1 Compiler Way',
        city: 'Arlington',
        zipCode: '22201',
        country: 'United States',
      };
      return (await placeOrder(db, { owner, checkout, idempotencyKey: null, currency: 'usd' })).order;
    };
    const alerts = () =>
      smtp.messages
        .filter((m) => m.to.includes(admin.email) && m.subject.includes('Letterpress Card'))
        .map((m) => m.subject);

    const first = await buy(2, 'guest-session-one-aaaaaaaaaaaaaaaaaaaaaaaa');
    await smtp.waitFor(
      (m) => m.to.includes(admin.email) && m.subject === 'Low stock: Letterpress Card (10 left)',
    );
    await executeOrderCommand(db, first.id, { type: 'CancelOrder', reason: 'changed mind' });
    expect(await stockOf(db, product.id)).toBe(12);
    await buy(12, 'guest-session-two-bbbbbbbbbbbbbbbbbbbbbbbb');
    await smtp.waitFor((m) => m.to.includes(admin.email) && m.subject === 'Out of stock: Letterpress Card');
    expect(alerts()).toEqual(['Low stock: Letterpress Card (10 left)', 'Out of stock: Letterpress Card']);
  });
});
