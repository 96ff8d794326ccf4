import type { Db } from '../db/knex.ts';
import { createRateLimit } from '../server/rate-limit.ts';
import type { RequestState } from '../server/request-state.ts';
import type { AppServices } from '../server/services.ts';
import { mergeGuestCart } from '../shop/cart-merge.ts';
import { LocalIdentityProvider } from './local.ts';
import type { SessionUser } from './sessions.ts';

const providers = new WeakMap<Db, LocalIdentityProvider>();

/** The identity provider of this deployment (local accounts; see the README on Cognito). */
export function identityProvider(services: AppServices): LocalIdentityProvider {
  let provider = providers.get(services.db);
  if (!provider) {
    provider = new LocalIdentityProvider(services.db, services.queues);
    providers.set(services.db, provider);
  }
  return provider;
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
    resets: createRateLimit(db, {
      keyPrefix: 'reset',
      points: 10,
      durationSeconds: WINDOW_SECONDS,
      message: 'Too many password reset attempts. Please wait 15 minutes and try again.',
    }),
  };
}

/**
 * Signs a visitor in: refused while the account or address is over its failure limit (even
 * with the right password), then the guest cart joins the user's and the session id changes.
 */
export async function signIn(
  services: AppServices,
  state: RequestState,
  input: { email: string; password: string } | { username: string; password: string },
): Promise<{ user: SessionUser; token: string }> {
  const limits = authLimits(services.db);
  const accountKey = ('email' in input ? input.email : input.username).trim().toLowerCase();
  await limits.accountFailures.check(accountKey);
  await limits.ipFailures.check(state.clientIp);
  let user: SessionUser;
  try {
    user = await identityProvider(services).signIn(input);
  } catch (error) {
    if ((error as { status?: number }).status === 401) {
      await limits.accountFailures.consume(accountKey).catch(() => {});
      await limits.ipFailures.consume(state.clientIp).catch(() => {});
    }
    throw error;
  }
  const guestSession = state.session.id;
  if (guestSession && !state.session.user) {
    await services.db.transaction((trx) => mergeGuestCart(trx, guestSession, user.id));
  }
  const token = await state.session.rotate(user.id);
  state.log.info({ userId: user.id }, 'signed in');
  return { user, token };
}

/** Ends the session: a new anonymous id replaces it, so the old one is worthless. */
export async function signOut(state: RequestState): Promise<void> {
  if (state.session.user) await state.session.rotate(null);
}
