import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';
import { Conflict, Forbidden, Invalid, NotFound, Unauthorized } from '../kernel/errors.ts';
import { LIMITS } from '../kernel/rate-limit.ts';
import type { ProviderSession, SessionUser } from '../kernel/request.ts';
import { AUTH_MESSAGES } from './messages.ts';
import { hashPassword, verifyPassword, verifyPasswordOrDummy } from './passwords.ts';
import {
  type AccountInput,
  assertStrongPassword,
  type ChangePasswordInput,
  describeCurrentUser,
  type IdentityProvider,
  listUserRows,
  presentUser,
  type ResetInput,
  type SignInInput,
  type SignInResult,
  type SignUpInput,
  type UserRow,
} from './provider.ts';

const CODE_TTL_MS = { confirm: 24 * 3600_000, reset: 3600_000 } as const;
const MAX_CODE_ATTEMPTS = LIMITS.mailedCodeAttempts.points;

type Purpose = keyof typeof CODE_TTL_MS;

async function findUser(
  db: Db | Knex.Transaction,
  by: { email: string } | { username: string },
): Promise<UserRow | undefined> {
  const query = db('users').where({ provider: 'local' });
  if ('email' in by) return query.whereRaw('lower(email) = lower(?)', [by.email]).first();
  return query.whereRaw('lower(username) = lower(?)', [by.username]).first();
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

/**
 * Checks a code: every try takes one of its 5 attempts first, in its own committed statement
 * (never inside the transaction of what the code proves, which a wrong code rolls back), so
 * parallel tries are judged at most 5 times. Expired or exhausted codes must be re-sent. Answers
 * the right code's id, for spendCode.
 */
async function tryCode(db: Db, userId: number, purpose: Purpose, code: string): Promise<number> {
  const [row] = await db('auth_codes')
    .where({ user_id: userId, purpose })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .where('attempts', '<', MAX_CODE_ATTEMPTS)
    .where('id', db('auth_codes').where({ user_id: userId, purpose }).whereNull('used_at').max('id'))
    .increment('attempts', 1)
    .returning(['id', 'code_hash']);
  if (!row) throw new Invalid(AUTH_MESSAGES.codeExpired);
  if (!(await verifyPassword(row.code_hash, code))) throw new Invalid(AUTH_MESSAGES.codeMismatch);
  return row.id;
}

/** Uses up a right code in the transaction of what it proves: once, however many tried it at once. */
async function spendCode(trx: Knex.Transaction, codeId: number): Promise<void> {
  const spent = await trx('auth_codes')
    .where({ id: codeId })
    .whereNull('used_at')
    .update({ used_at: trx.fn.now() });
  if (spent === 0) throw new Invalid(AUTH_MESSAGES.codeExpired);
}

/** Local accounts: users in PostgreSQL, argon2id passwords, codes by mail. */
export class LocalIdentityProvider implements IdentityProvider {
  readonly name = 'local';
  private readonly db: Db;
  private readonly queues: Queues;

  constructor(db: Db, queues: Queues) {
    this.db = db;
    this.queues = queues;
  }

  async signUp(input: SignUpInput): Promise<{ userId: number }> {
    assertStrongPassword(input.password);
    // Usernames and addresses are unique across providers (one users table).
    const taken = (column: 'username' | 'email', value: string) =>
      this.db('users').whereRaw(`lower(${column}) = lower(?)`, [value]).first('id');
    if (await taken('username', input.username)) throw new Conflict(AUTH_MESSAGES.usernameTaken);
    if (await taken('email', input.email)) throw new Conflict(AUTH_MESSAGES.emailTaken);
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
      if ((error as { code?: string }).code === '23505') throw new Conflict(AUTH_MESSAGES.usernameTaken);
      throw error;
    }
    await issueCode(this.db, this.queues, row, 'confirm');
    return { userId: row.id };
  }

  async confirmSignUp(input: { username: string; code: string }): Promise<void> {
    const user = await findUser(this.db, { username: input.username });
    if (!user) throw new NotFound(AUTH_MESSAGES.userNotFound);
    if (user.email_verified) return;
    const codeId = await tryCode(this.db, user.id, 'confirm', input.code);
    await this.db.transaction(async (trx) => {
      await spendCode(trx, codeId);
      await trx('users').where({ id: user.id }).update({ email_verified: true, updated_at: trx.fn.now() });
    });
  }

  async resendCode(input: { username: string }): Promise<void> {
    const user = await findUser(this.db, { username: input.username });
    if (!user) throw new NotFound(AUTH_MESSAGES.userNotFound);
    if (!user.email_verified) await issueCode(this.db, this.queues, user, 'confirm');
  }

  /** The user for these credentials; the same message for an unknown account and a wrong password. */
  async signIn(input: SignInInput): Promise<SignInResult> {
    const user = await findUser(this.db, input);
    const ok = await verifyPasswordOrDummy(user?.password_hash, input.password);
    if (!user || !ok) throw new Unauthorized(AUTH_MESSAGES.signInFailed);
    if (!user.email_verified) throw new Forbidden(AUTH_MESSAGES.confirmFirst);
    return {
      user: presentUser(user),
      session: {
        signInDetails: {
          loginId: 'email' in input ? input.email : input.username,
          authFlowType: 'USER_PASSWORD_AUTH',
        },
      },
    };
  }

  async forgotPassword(input: AccountInput): Promise<void> {
    const user = await findUser(this.db, input);
    if (!user) throw new NotFound(AUTH_MESSAGES.userNotFound);
    await issueCode(this.db, this.queues, user, 'reset');
  }

  async confirmNewPassword(input: ResetInput): Promise<void> {
    assertStrongPassword(input.password);
    const user = await findUser(this.db, input);
    if (!user) throw new NotFound(AUTH_MESSAGES.userNotFound);
    const codeId = await tryCode(this.db, user.id, 'reset', input.code);
    const hash = await hashPassword(input.password);
    await this.db.transaction(async (trx) => {
      await spendCode(trx, codeId);
      // A reset by mail also proves the address.
      await trx('users')
        .where({ id: user.id })
        .update({ password_hash: hash, email_verified: true, updated_at: trx.fn.now() });
      await trx('sessions').where({ user_id: user.id }).delete();
    });
  }

  async changePassword(user: SessionUser, input: ChangePasswordInput): Promise<void> {
    assertStrongPassword(input.newPassword);
    const row: UserRow | undefined = await this.db('users').where({ id: user.id, provider: 'local' }).first();
    const ok = row?.password_hash ? await verifyPassword(row.password_hash, input.currentPassword) : false;
    if (!row || !ok) throw new Invalid(AUTH_MESSAGES.currentPasswordWrong);
    await this.db('users')
      .where({ id: row.id })
      .update({ password_hash: await hashPassword(input.newPassword), updated_at: this.db.fn.now() });
  }

  /** Nothing outside our own session, which the caller rotates. */
  async signOut(_session: ProviderSession): Promise<void> {}

  async currentUser(user: SessionUser | null, session: ProviderSession) {
    return describeCurrentUser(user, session);
  }

  listUsers() {
    return listUserRows(this.db, 'local');
  }
}
