import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/knex.ts';

const SECRET_KEY = 'order-link-secret';
const secrets = new WeakMap<Db, Promise<Buffer>>();

/** One random secret per installation, kept in the database so every instance signs alike. */
function linkSecret(db: Db): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = (async () => {
      await db('app_meta')
        .insert({ key: SECRET_KEY, value: JSON.stringify(randomBytes(32).toString('base64')) })
        .onConflict('key')
        .ignore();
      const row = await db('app_meta').where({ key: SECRET_KEY }).first('value');
      return Buffer.from(String(row.value), 'base64');
    })();
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

/**
 * The key in an order's link (the payment page's return, the mails): whoever holds the link
 * sees that order, as with the order number and email of the lookup form, and no other.
 */
export async function orderAccessKey(db: Db, orderId: number): Promise<string> {
  return createHmac('sha256', await linkSecret(db))
    .update(`order:${orderId}`)
    .digest('base64url')
    .slice(0, 32);
}

export async function isOrderAccessKey(db: Db, orderId: number, key: unknown): Promise<boolean> {
  if (typeof key !== 'string' || key.length !== 32) return false;
  const expected = Buffer.from(await orderAccessKey(db, orderId));
  const given = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function orderLink(db: Db, publicUrl: string, orderId: number): Promise<string> {
  return `${publicUrl}/orders/${orderId}?key=${await orderAccessKey(db, orderId)}`;
}
