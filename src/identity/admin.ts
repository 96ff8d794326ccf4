import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/knex.ts';
import { hashPassword } from './passwords.ts';

export type AdminBootstrap = { email: string; password: string; created: boolean; generated: boolean };

/** A password that meets the sign-up rules: upper, lower, digit and a special character. */
export function generatePassword(): string {
  return `${randomBytes(12).toString('base64url')}aA1!`;
}

/** The start-up bootstrap, for local accounts only: with Cognito, admins are the pool's `admin` group. */
export function bootstrapAdmin(db: Db, config: Pick<Config, 'admin' | 'cognito'>) {
  return config.cognito ? Promise.resolve(null) : ensureAdmin(db, config.admin);
}

// Any constant works; it only has to differ from the migration lock (src/db/migrate.ts).
const ADMIN_LOCK = 726_017_002;

/**
 * Creates or promotes the admin named by ADMIN_EMAIL/ADMIN_PASSWORD. Without them, creates
 * admin@penstand.local with a generated password, only when no admin exists yet. Web processes
 * starting together take turns (a transaction-scoped advisory lock), so one creates the account
 * and the others find it.
 */
export async function ensureAdmin(
  db: Db,
  wanted: { email: string; password: string } | undefined,
): Promise<AdminBootstrap | null> {
  return db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [ADMIN_LOCK]);
    return ensureAdminLocked(trx, wanted);
  });
}

async function ensureAdminLocked(
  db: Db,
  wanted: { email: string; password: string } | undefined,
): Promise<AdminBootstrap | null> {
  if (wanted) {
    const existing = await db('users').whereRaw('lower(email) = lower(?)', [wanted.email]).first();
    const password_hash = await hashPassword(wanted.password);
    if (existing) {
      await db('users')
        .where({ id: existing.id })
        .update({ role: 'admin', password_hash, email_verified: true, updated_at: db.fn.now() });
      return { ...wanted, created: false, generated: false };
    }
    await db('users').insert({
      email: wanted.email,
      username: await freeUsername(db, wanted.email.split('@')[0]),
      password_hash,
      role: 'admin',
      email_verified: true,
      first_name: 'Site',
      last_name: 'Admin',
    });
    return { ...wanted, created: true, generated: false };
  }
  const anyAdmin = await db('users').where({ role: 'admin' }).first('id');
  if (anyAdmin) return null;
  const password = generatePassword();
  const email = 'admin@penstand.local';
  await db('users').insert({
    email,
    username: await freeUsername(db, 'admin'),
    password_hash: await hashPassword(password),
    role: 'admin',
    email_verified: true,
    first_name: 'Alex',
    last_name: 'Morgan',
  });
  return { email, password, created: true, generated: true };
}

/** The wanted username, or it with the first free number after it. */
export async function freeUsername(db: Db, wanted: string): Promise<string> {
  const base = wanted.replace(/[^a-zA-Z0-9_-]/g, '').slice(0, 30) || 'admin';
  for (let n = 0; ; n++) {
    const candidate = n ? `${base}${n}` : base;
    const taken = await db('users').whereRaw('lower(username) = lower(?)', [candidate]).first('id');
    if (!taken) return candidate;
  }
}
