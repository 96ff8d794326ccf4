import type { Db } from '../db/knex.ts';
import {
  Conflict,
  Forbidden,
  Invalid,
  NotFound,
  RateLimited,
  type Refusal,
  Unauthorized,
} from '../kernel/errors.ts';
import { rateLimit } from '../kernel/rate-limit.ts';
import type { RequestContext, SessionUser } from '../kernel/request.ts';
import type { CoreServices } from '../kernel/services.ts';
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
import { endOtherSessions } from './sessions.ts';
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
export function identityProvider(services: Pick<CoreServices, 'db' | 'queues' | 'config'>): IdentityProvider {
  let provider = providers.get(services.db);
  if (!provider) {
    provider = services.config.cognito
      ? lazyCognitoProvider(services.db, services.config.cognito)
      : new LocalIdentityProvider(services.db, services.queues);
    providers.set(services.db, provider);
  }
  return provider;
}

/** Swallows the provider's 'no such account' (NotFound); anything else goes on. */
function unlessUnknownAccount(error: unknown): void {
  if (!(error instanceof NotFound)) throw error;
}

type ResetServices = Pick<CoreServices, 'db' | 'queues' | 'config' | 'publicUrl'>;

/**
 * Mails a reset code to an existing account. An unknown account gets nothing mailed and the
 * same answer as a known one, so the reset form tells no one which accounts exist.
 */
export async function sendResetCode(services: ResetServices, input: AccountInput): Promise<void> {
  await identityProvider(services).forgotPassword(input).catch(unlessUnknownAccount);
}

/**
 * A mailed code tried: a unit of the address's and of the identifier's code limits is taken
 * before the code is judged (each code also ends after 5 wrong tries, counted by the provider);
 * the right code gives them back.
 */
async function judgeCode<T>(
  db: Db,
  clientIp: string,
  identifier: string,
  judge: () => Promise<T>,
): Promise<T> {
  const limits = authLimits(db);
  const accountKey = identifier.trim().toLowerCase();
  await limits.codeGuessesByAddress.consume(clientIp);
  await limits.codeGuessesByAccount.consume(accountKey);
  const result = await judge();
  await limits.codeGuessesByAddress.refund(clientIp);
  await limits.codeGuessesByAccount.refund(accountKey);
  return result;
}

/** Confirms a new account's email with its mailed code. */
export async function confirmSignUp(
  services: Pick<CoreServices, 'db' | 'queues' | 'config'>,
  state: Pick<RequestContext, 'clientIp'>,
  input: { username: string; code: string },
): Promise<void> {
  await judgeCode(services.db, state.clientIp, `confirm|${input.username}`, () =>
    identityProvider(services).confirmSignUp(input),
  );
}

/** Sets a new password with a mailed code, and tells the owner. */
export async function resetPassword(
  services: ResetServices,
  state: Pick<RequestContext, 'clientIp'>,
  input: ResetInput,
): Promise<void> {
  const identifier = 'username' in input ? input.username : input.email;
  await judgeCode(services.db, state.clientIp, `reset|${identifier}`, () =>
    identityProvider(services)
      .confirmNewPassword(input)
      .catch((error) => {
        // For an unknown account the code is as wrong as any other: nothing more is said.
        unlessUnknownAccount(error);
        throw new Invalid(AUTH_MESSAGES.codeMismatch);
      }),
  );
  await mailPasswordReset(services.db, services.queues, input, services.publicUrl);
}

/** Limits that hold across processes (PostgreSQL-backed), per account and per address. */
export function authLimits(db: Db) {
  return {
    accountFailures: rateLimit(db, 'signInAccount'),
    ipFailures: rateLimit(db, 'signInAddress'),
    signUps: rateLimit(db, 'signUps'),
    codes: rateLimit(db, 'codeRequests'),
    codeGuessesByAddress: rateLimit(db, 'codeGuessesAddress'),
    codeGuessesByAccount: rateLimit(db, 'codeGuessesAccount'),
    passkeyChallenges: rateLimit(db, 'passkeyOptions'),
    resets: rateLimit(db, 'securityChanges'),
    // Guesses at a two-factor code while turning it on or off (Account page and API together).
    twoFactorCodes: rateLimit(db, 'twoFactorCodes'),
    passkeyRegistrations: rateLimit(db, 'passkeyRegistrations'),
  };
}

/** A limit's refusal (RateLimited) is an answer to hold; anything else goes on. */
function refusal(error: unknown): RateLimited {
  if (error instanceof RateLimited) return error;
  throw error;
}

/**
 * The key the per-account failure limit counts under: the identifier as typed, whether or not it
 * names an account, so a lock says nothing about which email and username belong together. From
 * an address the account has signed in from before, the owner's own failures count apart, so
 * failures from elsewhere do not lock the owner out.
 */
async function signInAccountKey(db: Db, input: SignInInput, clientIp: string): Promise<string> {
  const typed = ('email' in input ? input.email : input.username).trim().toLowerCase();
  const column = 'email' in input ? 'email' : 'username';
  const known = await db('users as u')
    .join('sign_in_addresses as a', 'a.user_id', 'u.id')
    .whereRaw(`lower(u.${column}) = ?`, [typed])
    .where('a.client_ip', clientIp)
    .first('u.id');
  return known ? `known:${known.id}|${clientIp}` : `typed:${typed}`;
}

/**
 * Signs a visitor in: each attempt takes a unit of the address's and the identifier's failure
 * limits before the password is checked, and a right password gives them back. Over the limit
 * the answer is 429 even for the right password, unless a second factor follows it: then the
 * code, counted under the account's own key, decides. On success the guest cart joins the
 * user's and the session id changes.
 */
export async function signIn(
  services: CoreServices,
  state: RequestContext,
  input: SignInInput,
): Promise<{ user: SessionUser; token: string }> {
  const limits = authLimits(services.db);
  const accountKey = await signInAccountKey(services.db, input, state.clientIp);
  await limits.ipFailures.consume(state.clientIp);
  const locked = await limits.accountFailures.consume(accountKey).then(() => null, refusal);
  const passwordRight = async () => {
    await limits.ipFailures.refund(state.clientIp);
    if (!locked) await limits.accountFailures.reset(accountKey);
  };
  let signedIn: SignInResult;
  try {
    signedIn = await identityProvider(services).signIn(input);
  } catch (error) {
    if (error instanceof ProviderChallenge) {
      await passwordRight();
      throw await providerChallenge(services, state, error.pending);
    }
    if (locked) throw locked;
    // Only a wrong password is a failure: an unconfirmed account's right one is not.
    if (!(error instanceof Unauthorized)) await passwordRight();
    throw error;
  }
  const { user } = signedIn;
  // The password was right; with two-factor on, the session opens only after the code.
  if (await twoFactorEnabled(services.db, user.id)) {
    await passwordRight();
    state.signInChallenged = user;
    throw new TwoFactorRequired(await createChallenge(services.db, user.id, signedIn.session));
  }
  if (locked) throw locked;
  await passwordRight();
  return finishSignIn(services, state, user, signedIn.session);
}

/**
 * The identity service asked for an authenticator code (Cognito's own MFA): the sign-in waits in
 * a challenge as a local one does, holding what answering takes. An account never mirrored here
 * has no row to hold it, and that step is one this app does not take.
 */
async function providerChallenge(
  services: CoreServices,
  state: RequestContext,
  pending: PendingChallenge,
): Promise<Refusal> {
  const row = await services
    .db('users')
    .where({ provider: identityProvider(services).name, username: pending.username })
    .first();
  if (!row) return new Forbidden(AUTH_MESSAGES.additionalSteps);
  state.signInChallenged = presentUser(row);
  return new TwoFactorRequired(await createChallenge(services.db, row.id, { pending }));
}

/**
 * The second step of a two-factor sign-in: the challenge and a code (authenticator or recovery).
 * Each code takes a unit of the address's limit and of the account's own code limit (which only
 * someone with the password reaches) before it is checked; the right one gives them back.
 */
export async function signInWithCode(
  services: CoreServices,
  state: RequestContext,
  challengeId: string,
  code: string,
): Promise<{ user: SessionUser; token: string }> {
  const limits = authLimits(services.db);
  await limits.ipFailures.consume(state.clientIp);
  const pending = await services.db('login_challenges').where({ id: challengeId }).first('user_id');
  const accountKey = pending ? `user:${pending.user_id}` : null;
  if (accountKey) await limits.accountFailures.consume(accountKey);
  let answered: { userId: number; session: Record<string, unknown> };
  try {
    answered = await answerChallenge(services.db, challengeId, async (userId, stored) => {
      const pending = stored.pending as PendingChallenge | undefined;
      if (!pending) return (await verifySecondFactor(services.db, userId, code)) ? stored : null;
      const result = await identityProvider(services).answerChallenge?.(pending, code);
      return result?.session ?? null;
    });
  } catch (error) {
    // The audit log names the account a refused code was for.
    if (error instanceof Unauthorized && pending) {
      const row = await services.db('users').where({ id: pending.user_id }).first();
      if (row) state.signInRefused = presentUser(row);
    }
    throw error;
  }
  await limits.ipFailures.refund(state.clientIp);
  if (accountKey) await limits.accountFailures.reset(accountKey);
  const row = await services.db('users').where({ id: answered.userId }).first();
  return finishSignIn(services, state, presentUser(row), answered.session as SignInResult['session']);
}

/**
 * A sign-in with a passkey, no password: the passkey is both factors (the authenticator verified
 * its user), so no code step follows. Each answer takes a unit of the address's limit before it
 * is checked; an accepted one gives it back.
 */
export async function signInWithPasskey(
  services: CoreServices,
  state: RequestContext,
  response: AuthenticationResponse,
): Promise<{ user: SessionUser; token: string }> {
  const limits = authLimits(services.db);
  await limits.ipFailures.consume(state.clientIp);
  const userId = await verifyPasskeySignIn(services, response);
  await limits.ipFailures.refund(state.clientIp);
  const user = presentUser(await services.db('users').where({ id: userId }).first());
  return finishSignIn(services, state, user, {
    signInDetails: { loginId: user.email, authFlowType: 'WEBAUTHN' },
  });
}

async function finishSignIn(
  services: CoreServices,
  state: RequestContext,
  user: SessionUser,
  providerSession: SignInResult['session'],
): Promise<{ user: SessionUser; token: string }> {
  const guestSession = state.session.id;
  if (guestSession && !state.session.user) {
    await services.db.transaction((trx) => mergeGuestCart(trx, guestSession, user.id));
  }
  const token = await state.session.rotate(user.id, providerSession);
  state.log.info({ userId: user.id }, 'signed in');
  await services
    .db('sign_in_addresses')
    .insert({ user_id: user.id, client_ip: state.clientIp })
    .onConflict(['user_id', 'client_ip'])
    .merge({ last_seen_at: services.db.fn.now() });
  await noteSignInDevice(services.db, services.queues, user, {
    userAgent: state.userAgent ?? null,
    clientIp: state.clientIp,
    publicUrl: services.publicUrl,
  }).catch((err: Error) => state.log.warn({ err: err.message }, 'sign-in device not noted'));
  return { user, token };
}

/** The provider whose own MFA serves this account (a Cognito one), or null for this app's. */
async function mfaProvider(services: CoreServices, userId: number): Promise<IdentityProvider | null> {
  const row = await services.db('users').where({ id: userId }).first('provider');
  const provider = identityProvider(services);
  return row && row.provider !== 'local' && row.provider === provider.name ? provider : null;
}

/** Starts authenticator setup: this app's own key, or the pool's (AssociateSoftwareToken) for a Cognito account. */
export async function startTwoFactorSetup(
  services: CoreServices,
  state: RequestContext,
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
  services: CoreServices,
  state: RequestContext,
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
  services: CoreServices,
  user: SessionUser,
  code: string,
): Promise<void> {
  if (await mfaProvider(services, user.id)) throw new Conflict(TWO_FACTOR_MESSAGES.localOnly);
  await disableTwoFactor(services.db, user.id, code);
}

/**
 * After two-factor was turned on or off: a privilege change, so the session id rotates (the
 * answer is the new one); the account's owner hears of it by mail.
 */
export async function twoFactorChanged(
  services: CoreServices,
  state: RequestContext,
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
  services: CoreServices,
  state: RequestContext,
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
export async function signOut(services: CoreServices, state: RequestContext): Promise<void> {
  if (!state.session.user) return;
  await identityProvider(services).signOut(state.session.data);
  await state.session.rotate(null);
}
