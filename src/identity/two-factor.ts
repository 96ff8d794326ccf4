import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../db/knex.ts';
import { Conflict, Invalid, Unauthorized } from '../kernel/errors.ts';
import { LIMITS } from '../kernel/rate-limit.ts';
import { getBlogSettings } from '../settings/settings.ts';

export const TWO_FACTOR_MESSAGES = {
  codeNeeded: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  codeWrong: 'That code is not right, or it was already used. Try the next one.',
  challengeExpired: 'The sign-in took too long. Please enter your password again.',
  notSetUp: 'Set up two-factor first.',
  alreadyOn: 'Two-factor sign-in is already on.',
  off: 'Two-factor sign-in is off.',
  localOnly:
    'Two-factor sign-in through Penstand is for local accounts; Cognito accounts use the pool’s own MFA.',
  adminSetupRequired:
    'The setting ‘Require two-factor for admins’ is on: turn on two-factor sign-in on your Account page (/account) before using the admin.',
} as const;

const ISSUER = 'Penstand';
const CHALLENGE_MS = 5 * 60_000;
const CHALLENGE_ATTEMPTS = LIMITS.twoFactorChallengeAttempts.points;
const RECOVERY_CODES = 10;

function totp(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const normalizeRecovery = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** Thrown by a sign-in whose password was right when the account has two-factor on. */
export class TwoFactorRequired extends Unauthorized {
  readonly challengeId: string;
  constructor(challengeId: string) {
    super(TWO_FACTOR_MESSAGES.codeNeeded);
    this.challengeId = challengeId;
  }
}

export async function twoFactorEnabled(db: Db, userId: number): Promise<boolean> {
  const row = await db('users').where({ id: userId }).first('totp_enabled_at');
  return Boolean(row?.totp_enabled_at);
}

/** The Account page's two-factor card: offered to local accounts only, and whether it is on. */
export async function twoFactorStatus(db: Db, userId: number): Promise<{ local: boolean; enabled: boolean }> {
  const row = await db('users').where({ id: userId }).first('provider', 'totp_enabled_at');
  return { local: row?.provider === 'local', enabled: Boolean(row?.totp_enabled_at) };
}

/** The setup a refused first code leaves on screen: the pending secret's, when there is one. */
export async function pendingTwoFactorSetup(
  db: Db,
  user: { id: number; email: string },
): Promise<TwoFactorSetup | null> {
  const row = await db('users').where({ id: user.id }).first('totp_pending_secret');
  return row?.totp_pending_secret ? setupOf(user.email, row.totp_pending_secret) : null;
}

/**
 * Whether the account signs in with more than a password: an authenticator app for a local
 * account. A Cognito account's MFA is the pool's to require, so it counts as having one.
 */
export async function hasSecondFactor(db: Db, userId: number): Promise<boolean> {
  const row = await db('users').where({ id: userId }).first('provider', 'totp_enabled_at');
  return row?.provider !== 'local' || Boolean(row.totp_enabled_at);
}

/** An admin without a second factor while 'Require two-factor for admins' is on: the admin is closed to them. */
export async function adminTwoFactorDue(db: Db, user: { id: number; role: string }): Promise<boolean> {
  if (user.role !== 'admin') return false;
  const { requireAdminTwoFactor } = await getBlogSettings(db);
  return requireAdminTwoFactor && !(await hasSecondFactor(db, user.id));
}

export async function createChallenge(db: Db, userId: number, session: object): Promise<string> {
  const id = randomBytes(24).toString('base64url');
  await db('login_challenges').where('expires_at', '<', db.fn.now()).delete();
  await db('login_challenges').insert({
    id,
    user_id: userId,
    expires_at: new Date(Date.now() + CHALLENGE_MS),
    session: JSON.stringify(session),
  });
  return id;
}

/**
 * Checks a TOTP code (±1 step of drift, each step usable once) or an unused recovery code for
 * the account, in a transaction that records the use. False when neither matches.
 */
export async function verifySecondFactor(db: Db, userId: number, rawCode: string): Promise<boolean> {
  const code = rawCode.replace(/\s/g, '');
  return db.transaction(async (trx) => {
    const user = await trx('users')
      .where({ id: userId })
      .forUpdate()
      .first('email', 'totp_secret', 'totp_last_step');
    if (!user?.totp_secret) return false;
    if (/^\d{6}$/.test(code)) {
      const delta = totp(user.totp_secret, user.email).validate({ token: code, window: 1 });
      if (delta === null) return false;
      const step = Math.floor(Date.now() / 30_000) + delta;
      if (user.totp_last_step !== null && step <= Number(user.totp_last_step)) return false;
      await trx('users').where({ id: userId }).update({ totp_last_step: step });
      return true;
    }
    const hash = sha256(normalizeRecovery(code));
    const rows = await trx('recovery_codes')
      .where({ user_id: userId })
      .whereNull('used_at')
      .select('id', 'code_hash');
    const match = rows.find((r) => timingSafeEqual(Buffer.from(r.code_hash), Buffer.from(hash)));
    if (!match) return false;
    await trx('recovery_codes').where({ id: match.id }).update({ used_at: trx.fn.now() });
    return true;
  });
}

/**
 * The second step of a sign-in: `check` decides the code (this app's authenticator check, or the
 * identity service's for a challenge it set) and answers the session to open, or null when the
 * code is wrong. Answers the challenge's account and that session, else an error.
 */
export async function answerChallenge(
  db: Db,
  challengeId: string,
  check: (userId: number, stored: Record<string, unknown>) => Promise<Record<string, unknown> | null>,
): Promise<{ userId: number; session: Record<string, unknown> }> {
  if (!/^[\w-]{20,64}$/.test(challengeId)) throw new Invalid(TWO_FACTOR_MESSAGES.challengeExpired);
  // The attempt is taken before the code is judged, so parallel codes are judged at most
  // CHALLENGE_ATTEMPTS times in all.
  const [challenge] = await db('login_challenges')
    .where({ id: challengeId })
    .where('expires_at', '>', db.fn.now())
    .where('attempts', '<', CHALLENGE_ATTEMPTS)
    .increment('attempts', 1)
    .returning(['user_id', 'session']);
  if (!challenge) throw new Invalid(TWO_FACTOR_MESSAGES.challengeExpired);
  const session = await check(challenge.user_id, challenge.session ?? {});
  if (!session) throw new Unauthorized(TWO_FACTOR_MESSAGES.codeWrong);
  // Deleted once: of two right codes in parallel, only one opens a session.
  if ((await db('login_challenges').where({ id: challengeId }).delete()) === 0)
    throw new Invalid(TWO_FACTOR_MESSAGES.challengeExpired);
  return { userId: challenge.user_id, session };
}

export type TwoFactorSetup = { secret: string; otpauthUrl: string; qrSvg: string };

/** A new secret to scan, kept pending until a first code confirms it. */
export async function beginTwoFactorSetup(
  db: Db,
  user: { id: number; email: string },
): Promise<TwoFactorSetup> {
  const row = await db('users').where({ id: user.id }).first('provider', 'totp_enabled_at');
  if (row?.provider !== 'local') throw new Conflict(TWO_FACTOR_MESSAGES.localOnly);
  if (row.totp_enabled_at) throw new Conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  const secret = new Secret({ size: 20 }).base32;
  await db('users').where({ id: user.id }).update({ totp_pending_secret: secret });
  return setupOf(user.email, secret);
}

/** What the authenticator app needs: the key, its otpauth URI and that URI as a QR code (SVG). */
export async function setupOf(email: string, secret: string): Promise<TwoFactorSetup> {
  const otpauthUrl = totp(secret, email).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauthUrl, qrSvg };
}

/** Turns two-factor on with the first code of the pending secret; answers the recovery codes, shown once. */
export async function enableTwoFactor(
  db: Db,
  user: { id: number; email: string },
  code: string,
): Promise<string[]> {
  const row = await db('users').where({ id: user.id }).first('totp_pending_secret', 'totp_enabled_at');
  if (row?.totp_enabled_at) throw new Conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  if (!row?.totp_pending_secret) throw new Conflict(TWO_FACTOR_MESSAGES.notSetUp);
  const delta = totp(row.totp_pending_secret, user.email).validate({
    token: code.replace(/\s/g, ''),
    window: 1,
  });
  if (delta === null) throw new Invalid(TWO_FACTOR_MESSAGES.codeWrong);
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = randomBytes(5).toString('hex');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await db.transaction(async (trx) => {
    await trx('users')
      .where({ id: user.id })
      .update({
        totp_secret: row.totp_pending_secret,
        totp_pending_secret: null,
        totp_enabled_at: trx.fn.now(),
        totp_last_step: Math.floor(Date.now() / 30_000) + delta,
      });
    await trx('recovery_codes').where({ user_id: user.id }).delete();
    await trx('recovery_codes').insert(
      codes.map((c) => ({ user_id: user.id, code_hash: sha256(normalizeRecovery(c)) })),
    );
  });
  return codes;
}

/** Turns two-factor off: it takes a current code (or a recovery code), not only the session. */
export async function disableTwoFactor(db: Db, userId: number, code: string): Promise<void> {
  if (!(await twoFactorEnabled(db, userId))) throw new Conflict(TWO_FACTOR_MESSAGES.off);
  if (!(await verifySecondFactor(db, userId, code))) throw new Invalid(TWO_FACTOR_MESSAGES.codeWrong);
  await db.transaction(async (trx) => {
    await trx('users')
      .where({ id: userId })
      .update({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null });
    await trx('recovery_codes').where({ user_id: userId }).delete();
  });
}
