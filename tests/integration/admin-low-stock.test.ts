import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      .insert({ name: 'Enamel Pin', description: 'd', price: 900, category: 'Merchandise', stock: 12 })
      .returning('id');
    const stock = (value: number | null) =>
      app.services.db('products').where({ id: product.id }).update({ stock: value });
    const subjects = () => smtp.messages.filter((m) => m.to.includes(admin.email)).map((m) => m.subject);

    await stock(11);
    await stock(8);
    await smtp.waitFor((m) => m.subject === 'Low stock: Enamel Pin (8 left)');
    await stock(5);
    await app.services.db('products').where({ id: product.id }).update({ name: 'Enamel Pin' });
    await stock(0);
    await smtp.waitFor((m) => m.subject === 'Out of stock: Enamel Pin');
    expect(subjects()).toEqual(['Low stock: Enamel Pin (8 left)', 'Out of stock: Enamel Pin']);
    // Unlimited stock never alerts.
    await stock(null);
    expect(
      await app.services.db('outbox').where({ job_name: 'maintenance.low-stock-alert' }).count('* as n'),
    ).toEqual([{ n: 2 }]);
  });
});
