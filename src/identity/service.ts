import type { Db } from '../db/knex.ts';
import { HttpError } from '../server/middleware.ts';
import { createRateLimit } from '../server/rate-limit.ts';
import type { RequestState } from '../server/request-state.ts';
import type { AppServices } from '../server/services.ts';
import { mergeGuestCart } from '../shop/cart-merge.ts';
import { lazyCognitoProvider } from './lazy-cognito.ts';
import { LocalIdentityProvider } from './local.ts';
import { AUTH_MESSAGES } from './messages.ts';
import type { AuthenticationResponse } from './passkey-schemas.ts';
import { verifyPasskeySignIn } from './passkeys.ts';
import type {
  AccountInput,
  ChangePasswordInput,
  IdentityProvider,
  PendingChallenge,
  ResetInput,
  SignInInput,
  SignInResult,
} from './provider.ts';
import { ProviderChallenge, presentUser } from './provider.ts';
import { mailPasswordReset, mailSecurityNotice, noteSignInDevice } from './security-mail.ts';
import { endOtherSessions, type SessionUser } from './sessions.ts';
import {
  answerChallenge,
  beginTwoFactorSetup,
  createChallenge,
  disableTwoFactor,
  enableTwoFactor,
  setupOf,
  TWO_FACTOR_MESSAGES,
  TwoFactorRequired,
  type TwoFactorSetup,
  twoFactorEnabled,
  verifySecondFactor,
} from './two-factor.ts';

const providers = new WeakMap<Db, IdentityProvider>();

/**
 * The identity provider of this deployment: Amazon Cognito when COGNITO_USER_POOL_ID and
 * COGNITO_CLIENT_ID are set, local accounts otherwise. One per process (per database).
 */
export function identityProvider(services: Pick<AppServices, 'db' | 'queues' | 'config'>): IdentityProvider {
  let provider = providers.get(services.db);
  if (!provider) {
    provider = services.config.cognito
      ? lazyCognitoProvider(services.db, services.config.cognito)
      : new LocalIdentityProvider(services.db, services.queues);
    providers.set(services.db, provider);
  }
  return provider;
}

/** Swallows the provider's 'no such account' (404); anything else goes on. */
function unlessUnknownAccount(error: unknown): void {
  if ((error as { status?: number }).status !== 404) throw error;
}

type ResetServices = Pick<AppServices, 'db' | 'queues' | 'config' | 'publicUrl'>;

/**
 * Mails a reset code to an existing account. An unknown account gets nothing mailed and the
 * same answer as a known one, so the reset form tells no one which accounts exist.
 */
export async function sendResetCode(services: ResetServices, input: AccountInput): Promise<void> {
  await identityProvider(services).forgotPassword(input).catch(unlessUnknownAccount);
}

/** Sets a new password with a mailed code, and tells the owner. */
export async function resetPassword(services: ResetServices, input: ResetInput): Promise<void> {
  await identityProvider(services)
    .confirmNewPassword(input)
    .catch((error) => {
      // For an unknown account the code is as wrong as any other: nothing more is said.
      unlessUnknownAccount(error);
      throw new HttpError(400, AUTH_MESSAGES.codeMismatch);
    });
  await mailPasswordReset(services.db, services.queues, input, services.publicUrl);
}

const WINDOW_SECONDS = 15 * 60;

/** Limits that hold across processes (PostgreSQL-backed), per account and per address. */
export function authLimits(db: Db) {
  return {
    accountFailures: createRateLimit(db, {
      keyPrefix: 'signin-account',
      points: 10,
      durationSeconds: WINDOW_SECONDS,
      message: 'Too many failed sign-in attempts for this account. Please wait 15 minutes and try again.',
    }),
    ipFailures: createRateLimit(db, {
      keyPrefix: 'signin-ip',
      points: 50,
      durationSeconds: WINDOW_SECONDS,
      message: 'Too many failed sign-in attempts from your network. Please wait 15 minutes and try again.',
    }),
    signUps: createRateLimit(db, {
      keyPrefix: 'signup-ip',
      points: 10,
      durationSeconds: 3600,
      message: 'Too many sign-ups from your network. Please try again later.',
    }),
    codes: createRateLimit(db, {
      keyPrefix: 'codes',
      points: 5,
      durationSeconds: WINDOW_SECONDS,
      message: 'Too many code requests. Please wait 15 minutes before asking for another code.',
    }),
    // Each passkey sign-in's options store a challenge row until it expires: a flood would fill the table.
    passkeyChallenges: createRateLimit(db, {
      keyPrefix: 'passkey-options-ip',
      points: 30,
      durationSeconds: 60,
      message: 'Too many passkey sign-in attempts from your network. Please wait a minute and try again.',
    }),
    resets: createRateLimit(db, {
      keyPrefix: 'reset',
      points: 10,
      durationSeconds: WINDOW_SECONDS,
      message: 'Too many password reset attempts. Please wait 15 minutes and try again.',
    }),
    // Guesses at a two-factor code while turning it on or off (Account page and API together).
    twoFactorCodes: createRateLimit(db, {
      keyPrefix: 'two-factor-code',
      points: 10,
      durationSeconds: WINDOW_SECONDS,
      message: 'Too many two-factor code attempts. Please wait 15 minutes and try again.',
    }),
    passkeyRegistrations: createRateLimit(db, {
      keyPrefix: 'passkey-register',
      points: 10,
      durationSeconds: WINDOW_SECONDS,
      message: 'Too many passkeys added. Please wait 15 minutes and try again.',
    }),
  };
}

/**
 * The key the per-account failure limit counts under: the account, once the identifier names
 * one (its username and its email share one count), else the identifier as typed.
 */
async function signInAccountKey(db: Db, input: SignInInput): Promise<string> {
  const typed = ('email' in input ? input.email : input.username).trim().toLowerCase();
  const column = 'email' in input ? 'email' : 'username';
  const account = await db('users').whereRaw(`lower(${column}) = ?`, [typed]).first('id');
  return account ? `user:${account.id}` : `typed:${typed}`;
}

/**
 * Signs a visitor in: refused while the account or address is over its failure limit (even
 * with the right password), then the guest cart joins the user's and the session id changes.
 */
export async function signIn(
  services: AppServices,
  state: RequestState,
  input: SignInInput,
): Promise<{ user: SessionUser; token: string }> {
  const limits = authLimits(services.db);
  const accountKey = await signInAccountKey(services.db, input);
  await limits.accountFailures.check(accountKey);
  await limits.ipFailures.check(state.clientIp);
  let signedIn: SignInResult;
  try {
    signedIn = await identityProvider(services).signIn(input);
  } catch (error) {
    if (error instanceof ProviderChallenge) throw await providerChallenge(services, state, error.pending);
    if ((error as { status?: number }).status === 401) {
      await limits.accountFailures.consume(accountKey).catch(() => {});
      await limits.ipFailures.consume(state.clientIp).catch(() => {});
    }
    throw error;
  }
  const { user } = signedIn;
  // The password was right; with two-factor on, the session opens only after the code.
  if (await twoFactorEnabled(services.db, user.id)) {
    state.signInChallenged = user;
    throw new TwoFactorRequired(await createChallenge(services.db, user.id, signedIn.session));
  }
  return finishSignIn(services, state, user, signedIn.session);
}

/**
 * The identity service asked for an authenticator code (Cognito's own MFA): the sign-in waits in
 * a challenge as a local one does, holding what answering takes. An account never mirrored here
 * has no row to hold it, and that step is one this app does not take.
 */
async function providerChallenge(
  services: AppServices,
  state: RequestState,
  pending: PendingChallenge,
): Promise<HttpError> {
  const row = await services
    .db('users')
    .where({ provider: identityProvider(services).name, username: pending.username })
    .first();
  if (!row) return new HttpError(403, AUTH_MESSAGES.additionalSteps);
  state.signInChallenged = presentUser(row);
  return new TwoFactorRequired(await createChallenge(services.db, row.id, { pending }));
}

/**
 * The second step of a two-factor sign-in: the challenge and a code (authenticator or recovery).
 * Wrong codes count against the same limits as wrong passwords.
 */
export async function signInWithCode(
  services: AppServices,
  state: RequestState,
  challengeId: string,
  code: string,
): Promise<{ user: SessionUser; token: string }> {
  const limits = authLimits(services.db);
  await limits.ipFailures.check(state.clientIp);
  const pending = await services.db('login_challenges').where({ id: challengeId }).first('user_id');
  if (pending) await limits.accountFailures.check(`user:${pending.user_id}`);
  let answered: { userId: number; session: Record<string, unknown> };
  try {
    answered = await answerChallenge(services.db, challengeId, async (userId, stored) => {
      const pending = stored.pending as PendingChallenge | undefined;
      if (!pending) return (await verifySecondFactor(services.db, userId, code)) ? stored : null;
      const result = await identityProvider(services).answerChallenge?.(pending, code);
      return result?.session ?? null;
    });
  } catch (error) {
    if ((error as { status?: number }).status === 401) {
      if (pending) {
        await limits.accountFailures.consume(`user:${pending.user_id}`).catch(() => {});
        const row = await services.db('users').where({ id: pending.user_id }).first();
        if (row) state.signInRefused = presentUser(row);
      }
      await limits.ipFailures.consume(state.clientIp).catch(() => {});
    }
    throw error;
  }
  const row = await services.db('users').where({ id: answered.userId }).first();
  return finishSignIn(services, state, presentUser(row), answered.session as SignInResult['session']);
}

/**
 * A sign-in with a passkey, no password: the passkey is both factors (the authenticator verified
 * its user), so no code step follows. A refused answer counts against the address's limit.
 */
export async function signInWithPasskey(
  services: AppServices,
  state: RequestState,
  response: AuthenticationResponse,
): Promise<{ user: SessionUser; token: string }> {
  const limits = authLimits(services.db);
  await limits.ipFailures.check(state.clientIp);
  let userId: number;
  try {
    userId = await verifyPasskeySignIn(services, response);
  } catch (error) {
    if ((error as { status?: number }).status === 400)
      await limits.ipFailures.consume(state.clientIp).catch(() => {});
    throw error;
  }
  const user = presentUser(await services.db('users').where({ id: userId }).first());
  return finishSignIn(services, state, user, {
    signInDetails: { loginId: user.email, authFlowType: 'WEBAUTHN' },
  });
}

async function finishSignIn(
  services: AppServices,
  state: RequestState,
  user: SessionUser,
  providerSession: SignInResult['session'],
): Promise<{ user: SessionUser; token: string }> {
  const guestSession = state.session.id;
  if (guestSession && !state.session.user) {
    await services.db.transaction((trx) => mergeGuestCart(trx, guestSession, user.id));
  }
  const token = await state.session.rotate(user.id, providerSession);
  state.log.info({ userId: user.id }, 'signed in');
  await noteSignInDevice(services.db, services.queues, user, {
    userAgent: state.userAgent ?? null,
    clientIp: state.clientIp,
    publicUrl: services.publicUrl,
  }).catch((err: Error) => state.log.warn({ err: err.message }, 'sign-in device not noted'));
  return { user, token };
}

/** The provider whose own MFA serves this account (a Cognito one), or null for this app's. */
async function mfaProvider(services: AppServices, userId: number): Promise<IdentityProvider | null> {
  const row = await services.db('users').where({ id: userId }).first('provider');
  const provider = identityProvider(services);
  return row && row.provider !== 'local' && row.provider === provider.name ? provider : null;
}

/** Starts authenticator setup: this app's own key, or the pool's (AssociateSoftwareToken) for a Cognito account. */
export async function startTwoFactorSetup(
  services: AppServices,
  state: RequestState,
  user: SessionUser,
): Promise<TwoFactorSetup> {
  const provider = await mfaProvider(services, user.id);
  if (!provider?.associateTotp) return beginTwoFactorSetup(services.db, user);
  return setupOf(user.email, await provider.associateTotp(state.session.data));
}

/**
 * Turns the app on with its first code; answers the recovery codes to show once (none for a
 * Cognito account, whose pool has no such thing: VerifySoftwareToken, then the MFA preference).
 */
export async function finishTwoFactorSetup(
  services: AppServices,
  state: RequestState,
  user: SessionUser,
  code: string,
): Promise<string[]> {
  const provider = await mfaProvider(services, user.id);
  if (!provider?.verifyTotp) return enableTwoFactor(services.db, user, code);
  await provider.verifyTotp(state.session.data, code);
  return [];
}

/** Turns this app's two-factor off with a current code; a Cognito account's MFA is turned off in the pool. */
export async function turnOffTwoFactor(
  services: AppServices,
  user: SessionUser,
  code: string,
): Promise<void> {
  if (await mfaProvider(services, user.id)) throw new HttpError(409, TWO_FACTOR_MESSAGES.localOnly);
  await disableTwoFactor(services.db, user.id, code);
}

/**
 * After two-factor was turned on or off: a privilege change, so the session id rotates (the
 * answer is the new one); the account's owner hears of it by mail.
 */
export async function twoFactorChanged(
  services: AppServices,
  state: RequestState,
  user: SessionUser,
  on: boolean,
): Promise<string> {
  const token = await state.session.rotate(user.id, state.session.data);
  const now = on ? 'on' : 'off';
  await mailSecurityNotice(
    services.queues,
    user.email,
    `Two-factor sign-in is ${now} for your Penstand account`,
    [`Two-factor sign-in was turned ${now} at ${new Date().toUTCString()}.`],
    services.publicUrl,
  );
  return token;
}

/**
 * A signed-in user's password change (the API's change-password and the Account page alike):
 * counted against the reset limit, proven with the current password by the provider, then every
 * other session ends (whoever knew the old password is signed out everywhere but here) and the
 * owner hears of it by mail.
 */
export async function changePassword(
  services: AppServices,
  state: RequestState,
  user: SessionUser,
  input: ChangePasswordInput,
): Promise<void> {
  await authLimits(services.db).resets.consume(`user|${user.id}`);
  await identityProvider(services).changePassword(user, input);
  await endOtherSessions(services.db, user.id, state.session.id);
  await mailSecurityNotice(
    services.queues,
    user.email,
    'Your Penstand password was changed',
    [
      `The password of your account was changed at ${new Date().toUTCString()}; your other sessions were signed out.`,
    ],
    services.publicUrl,
  );
}

/** Ends the session: a new anonymous id replaces it, so the old one is worthless. */
export async function signOut(services: AppServices, state: RequestState): Promise<void> {
  if (!state.session.user) return;
  await identityProvider(services).signOut(state.session.data);
  await state.session.rotate(null);
}
