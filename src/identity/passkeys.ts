import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Db } from '../db/knex.ts';
import { Conflict, Invalid, NotFound } from '../kernel/errors.ts';
import type { CoreServices } from '../kernel/services.ts';
import { PASSKEY_MESSAGES } from './passkey-messages.ts';
import type { AuthenticationResponse, RegistrationResponse } from './passkey-schemas.ts';
import { mailSecurityNotice } from './security-mail.ts';

const CHALLENGE_MS = 5 * 60_000;
const RP_NAME = 'Penstand';
/**
 * EdDSA, ES256 and RS256: what authenticators use. Named here because the library's default
 * probes Node's experimental ML-DSA support, which prints a warning on every process.
 */
const ALGORITHMS = [-8, -7, -257];

type PasskeyServices = Pick<CoreServices, 'db' | 'queues' | 'publicUrl' | 'config'>;

/** The relying party is the public site: its host name is the RP ID, its origin the one expected. */
function relyingParty(publicUrl: string): { rpID: string; origin: string } {
  const url = new URL(publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/**
 * The user handle stored in a discoverable passkey: the account id. It names the account to
 * the authenticator only (no email), and one account has one handle, so an authenticator keeps
 * one passkey per account.
 */
const userHandle = (userId: number) => new TextEncoder().encode(`penstand:${userId}`);
const userHandleBase64url = (userId: number) => Buffer.from(userHandle(userId)).toString('base64url');

function refuseCognito(services: PasskeyServices): void {
  if (services.config.cognito) throw new Conflict(PASSKEY_MESSAGES.localOnly);
}

async function storeChallenge(db: Db, challenge: string, userId: number | null): Promise<void> {
  await db('passkey_challenges').where('expires_at', '<', db.fn.now()).delete();
  await db('passkey_challenges').insert({
    challenge,
    user_id: userId,
    expires_at: new Date(Date.now() + CHALLENGE_MS),
  });
}

/** Takes the challenge out (good once), true when it was handed out for this ceremony and is fresh. */
async function consumeChallenge(db: Db, challenge: string, userId: number | null): Promise<boolean> {
  const used = await db('passkey_challenges')
    .where({ challenge })
    .where((w) => (userId === null ? w.whereNull('user_id') : w.where('user_id', userId)))
    .where('expires_at', '>', db.fn.now())
    .delete()
    .returning('challenge');
  return used.length === 1;
}

/**
 * The challenge an answer signed (from its client data), taken out of storage: good once, for
 * the ceremony it was handed out for, within 5 minutes. A 400 otherwise.
 */
async function takeChallenge(db: Db, clientDataJSON: string, userId: number | null): Promise<string> {
  let challenge: unknown;
  try {
    challenge = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')).challenge;
  } catch {
    throw new Invalid(PASSKEY_MESSAGES.malformed);
  }
  if (
    typeof challenge !== 'string' ||
    challenge.length > 200 ||
    !(await consumeChallenge(db, challenge, userId))
  )
    throw new Invalid(PASSKEY_MESSAGES.expired);
  return challenge;
}

/** The library names what failed in its own words; the visitor gets one clear message. */
async function verified<T extends { verified: boolean }>(
  run: () => Promise<T>,
): Promise<T & { verified: true }> {
  let result: T;
  try {
    result = await run();
  } catch {
    throw new Invalid(PASSKEY_MESSAGES.notVerified);
  }
  if (!result.verified) throw new Invalid(PASSKEY_MESSAGES.notVerified);
  return result as T & { verified: true };
}

export type PasskeyView = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

export async function listPasskeys(db: Db, userId: number): Promise<PasskeyView[]> {
  const rows = await db('passkeys')
    .where({ user_id: userId })
    .orderBy('created_at', 'asc')
    .select('id', 'name', 'created_at', 'last_used_at');
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: r.last_used_at ? r.last_used_at.toISOString() : null,
  }));
}

/** Options for navigator.credentials.create(): a discoverable passkey for this local account. */
export async function passkeyRegistrationOptions(
  services: PasskeyServices,
  user: { id: number; email: string; firstName: string | null; lastName: string | null },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  refuseCognito(services);
  const account = await services.db('users').where({ id: user.id }).first('provider');
  if (account?.provider !== 'local') throw new Conflict(PASSKEY_MESSAGES.localOnly);
  const existing = await services.db('passkeys').where({ user_id: user.id }).select('id', 'transports');
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(services.publicUrl).rpID,
    userName: user.email,
    userID: userHandle(user.id),
    userDisplayName: [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email,
    attestationType: 'none',
    // The same authenticator twice would be one passkey under two names.
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await storeChallenge(services.db, options.challenge, user.id);
  return options;
}

/** Verifies the new passkey against this account's challenge, keeps it, and mails the owner. */
export async function registerPasskey(
  services: PasskeyServices,
  user: { id: number; email: string },
  name: string,
  response: RegistrationResponse,
): Promise<PasskeyView> {
  refuseCognito(services);
  const { rpID, origin } = relyingParty(services.publicUrl);
  const challenge = await takeChallenge(services.db, response.response.clientDataJSON, user.id);
  const result = await verified(() =>
    verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      // It stands in for the password and the second factor: the authenticator must verify its user.
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    }),
  );
  const { credential } = result.registrationInfo;
  const inserted = await services
    .db('passkeys')
    .insert({
      id: credential.id,
      user_id: user.id,
      public_key: Buffer.from(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name,
    })
    .onConflict('id')
    .ignore()
    .returning(['id', 'name', 'created_at']);
  if (inserted.length === 0) throw new Conflict(PASSKEY_MESSAGES.alreadyAdded);
  await mailSecurityNotice(
    services.queues,
    user.email,
    'A passkey was added to your Penstand account',
    [`A passkey named “${name}” was added to your account at ${new Date().toUTCString()}.`],
    services.publicUrl,
  );
  return {
    id: inserted[0].id,
    name: inserted[0].name,
    createdAt: inserted[0].created_at.toISOString(),
    lastUsedAt: null,
  };
}

/** Removes one of the user's own passkeys; another account's is not found. */
export async function deletePasskey(db: Db, userId: number, id: string): Promise<void> {
  if (!/^[A-Za-z0-9_-]{1,1400}$/.test(id)) throw new NotFound(PASSKEY_MESSAGES.notFound);
  const deleted = await db('passkeys').where({ id, user_id: userId }).delete();
  if (deleted === 0) throw new NotFound(PASSKEY_MESSAGES.notFound);
}

/** Options for navigator.credentials.get(): no account named, the authenticator offers its passkeys. */
export async function passkeySignInOptions(
  services: PasskeyServices,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  refuseCognito(services);
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(services.publicUrl).rpID,
    allowCredentials: [],
    userVerification: 'preferred',
  });
  await storeChallenge(services.db, options.challenge, null);
  return options;
}

/**
 * Checks a sign-in answer (a challenge of ours, signed by the registered key, the user verified,
 * the counter moving on) and records the use. Answers the account's id.
 */
export async function verifyPasskeySignIn(
  services: PasskeyServices,
  response: AuthenticationResponse,
): Promise<number> {
  refuseCognito(services);
  const passkey = await services
    .db('passkeys as p')
    .join('users as u', 'u.id', 'p.user_id')
    .where('p.id', response.id)
    .where('u.provider', 'local')
    .first('p.id', 'p.user_id', 'p.public_key', 'p.counter', 'p.transports');
  if (!passkey) throw new Invalid(PASSKEY_MESSAGES.unknown);
  // A discoverable credential names its account; it must be the one the passkey was added to.
  if (response.response.userHandle && response.response.userHandle !== userHandleBase64url(passkey.user_id))
    throw new Invalid(PASSKEY_MESSAGES.notVerified);
  const { rpID, origin } = relyingParty(services.publicUrl);
  const challenge = await takeChallenge(services.db, response.response.clientDataJSON, null);
  const result = await verified(() =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: Number(passkey.counter),
        transports: passkey.transports,
      },
      requireUserVerification: true,
    }),
  );
  await services
    .db('passkeys')
    .where({ id: passkey.id })
    .update({ counter: result.authenticationInfo.newCounter, last_used_at: services.db.fn.now() });
  return passkey.user_id;
}
