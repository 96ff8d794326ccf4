import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';
import { HttpError } from '../server/middleware.ts';
import { AUTH_MESSAGES } from './messages.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { SessionUser } from './sessions.ts';

const CODE_TTL_MS = { confirm: 24 * 3600_000, reset: 3600_000 } as const;
const MAX_CODE_ATTEMPTS = 5;

type Purpose = keyof typeof CODE_TTL_MS;

type UserRow = {
  id: number;
  email: string;
  username: string | null;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  role: 'user' | 'admin';
  email_verified: boolean;
};

export function presentUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
  };
}

async function findUser(
  db: Db | Knex.Transaction,
  by: { email?: string; username?: string },
): Promise<UserRow | undefined> {
  if (by.email) return db('users').whereRaw('lower(email) = lower(?)', [by.email]).first();
  if (by.username) return db('users').whereRaw('lower(username) = lower(?)', [by.username]).first();
  return undefined;
}

/** A fresh 6-digit code (stored hashed, replacing earlier ones of the same purpose) and its mail. */
async function issueCode(db: Db, queues: Queues, user: UserRow, purpose: Purpose): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.transaction(async (trx) => {
    await trx('auth_codes')
      .where({ user_id: user.id, purpose })
      .whereNull('used_at')
      .update({ used_at: trx.fn.now() });
    await trx('auth_codes').insert({
      user_id: user.id,
      purpose,
      code_hash: await hashPassword(code),
      expires_at: new Date(Date.now() + CODE_TTL_MS[purpose]),
    });
  });
  const subject = purpose === 'confirm' ? 'Confirm your Penstand account' : 'Reset your Penstand password';
  const intro = purpose === 'confirm' ? 'Your confirmation code is' : 'Your password reset code is';
  const expiry = purpose === 'confirm' ? '24 hours' : '1 hour';
  await queues.enqueue('mail.send', {
    to: user.email,
    subject,
    text: `${intro} ${code}\n\nIt expires in ${expiry}. If you did not ask for it, ignore this mail.`,
    html: `<p>${intro} <strong style="font-size:1.4em;letter-spacing:0.1em">${code}</strong></p><p>It expires in ${expiry}. If you did not ask for it, ignore this mail.</p>`,
    sensitive: true,
  });
}

/** Checks a code: wrong ones count against 5 attempts; expired or exhausted ones must be re-sent. */
async function useCode(trx: Knex.Transaction, userId: number, purpose: Purpose, code: string): Promise<void> {
  const row = await trx('auth_codes')
    .where({ user_id: userId, purpose })
    .whereNull('used_at')
    .orderBy('id', 'desc')
    .forUpdate()
    .first();
  if (!row || row.expires_at < new Date() || row.attempts >= MAX_CODE_ATTEMPTS) {
    throw new HttpError(400, AUTH_MESSAGES.codeExpired);
  }
  if (!(await verifyPassword(row.code_hash, code))) {
    await trx('auth_codes').where({ id: row.id }).increment('attempts', 1);
    throw new HttpError(400, AUTH_MESSAGES.codeMismatch);
  }
  await trx('auth_codes').where({ id: row.id }).update({ used_at: trx.fn.now() });
}

/** Local accounts: users in PostgreSQL, argon2id passwords, codes by mail. */
export class LocalIdentityProvider {
  private readonly db: Db;
  private readonly queues: Queues;

  constructor(db: Db, queues: Queues) {
    this.db = db;
    this.queues = queues;
  }

  async signUp(input: {
    username: string;
    email: string;
    password: string;
  }): Promise<{ userId: number; confirmationRequired: true }> {
    if (await findUser(this.db, { username: input.username }))
      throw new HttpError(409, AUTH_MESSAGES.usernameTaken);
    if (await findUser(this.db, { email: input.email })) throw new HttpError(409, AUTH_MESSAGES.emailTaken);
    let row: UserRow;
    try {
      [row] = await this.db('users')
        .insert({
          username: input.username,
          email: input.email,
          password_hash: await hashPassword(input.password),
        })
        .returning('*');
    } catch (error) {
      if ((error as { code?: string }).code === '23505')
        throw new HttpError(409, AUTH_MESSAGES.usernameTaken);
      throw error;
    }
    await issueCode(this.db, this.queues, row, 'confirm');
    return { userId: row.id, confirmationRequired: true };
  }

  async confirmSignUp(input: { username: string; code: string }): Promise<void> {
    const user = await findUser(this.db, { username: input.username });
    if (!user) throw new HttpError(404, AUTH_MESSAGES.userNotFound);
    if (user.email_verified) return;
    await this.db.transaction(async (trx) => {
      await useCode(trx, user.id, 'confirm', input.code);
      await trx('users').where({ id: user.id }).update({ email_verified: true, updated_at: trx.fn.now() });
    });
  }

  async resendCode(input: { username: string }): Promise<void> {
    const user = await findUser(this.db, { username: input.username });
    if (!user) throw new HttpError(404, AUTH_MESSAGES.userNotFound);
    if (!user.email_verified) await issueCode(this.db, this.queues, user, 'confirm');
  }

  /** The user for these credentials; the same message for an unknown account and a wrong password. */
  async signIn(input: { email?: string; username?: string; password: string }): Promise<SessionUser> {
    const user = await findUser(this.db, input);
    const ok = user?.password_hash ? await verifyPassword(user.password_hash, input.password) : false;
    if (!user || !ok) throw new HttpError(401, AUTH_MESSAGES.signInFailed);
    if (!user.email_verified) throw new HttpError(403, AUTH_MESSAGES.confirmFirst);
    return presentUser(user);
  }

  async forgotPassword(input: { username?: string; email?: string }): Promise<void> {
    const user = await findUser(this.db, input);
    if (!user) throw new HttpError(404, AUTH_MESSAGES.userNotFound);
    await issueCode(this.db, this.queues, user, 'reset');
  }

  /** Sets the new password and signs the account out everywhere. */
  async confirmNewPassword(input: {
    username?: string;
    email?: string;
    code: string;
    password: string;
  }): Promise<void> {
    const user = await findUser(this.db, input);
    if (!user) throw new HttpError(404, AUTH_MESSAGES.userNotFound);
    const hash = await hashPassword(input.password);
    await this.db.transaction(async (trx) => {
      await useCode(trx, user.id, 'reset', input.code);
      // A reset by mail also proves the address.
      await trx('users')
        .where({ id: user.id })
        .update({ password_hash: hash, email_verified: true, updated_at: trx.fn.now() });
      await trx('sessions').where({ user_id: user.id }).delete();
    });
  }

  async listUsers(): Promise<(SessionUser & { createdAt: string; emailVerified: boolean })[]> {
    const rows = await this.db('users').orderBy('id').limit(1000);
    return rows.map((row: UserRow & { created_at: Date }) => ({
      ...presentUser(row),
      emailVerified: row.email_verified,
      createdAt: row.created_at.toISOString(),
    }));
  }
}
