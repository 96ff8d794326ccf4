import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from './knex.ts';

const SECRET_KEY = 'site-link-secret';
// Held as a KeyObject: createHmac checks a Buffer key's kind by a throw and catch, on every call.
const secrets = new WeakMap<Db, Promise<KeyObject>>();

/** One random secret per installation, kept in the database so every instance signs alike. */
function siteSecret(db: Db): Promise<KeyObject> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = (async () => {
      await db('app_meta')
        .insert({ key: SECRET_KEY, value: JSON.stringify(randomBytes(32).toString('base64')) })
        .onConflict('key')
        .ignore();
      const row = await db('app_meta').where({ key: SECRET_KEY }).first('value');
      return createSecretKey(Buffer.from(String(row.value), 'base64'));
    })();
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

/**
 * A key for links that open one thing without signing in (an order's page, an unsubscribe):
 * 32 characters of an HMAC over what the link is for, which nobody can compute for another id.
 */
export async function linkKey(db: Db, purpose: string): Promise<string> {
  return createHmac('sha256', await siteSecret(db))
    .update(purpose)
    .digest('base64url')
    .slice(0, 32);
}

export async function isLinkKey(db: Db, purpose: string, key: unknown): Promise<boolean> {
  if (typeof key !== 'string' || key.length !== 32) return false;
  const expected = Buffer.from(await linkKey(db, purpose));
  const given = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
