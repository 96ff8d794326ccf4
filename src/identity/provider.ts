import type { Db } from '../db/knex.ts';
import { Invalid } from '../kernel/errors.ts';
import type { ProviderSession, SessionUser, SignInDetails } from '../kernel/request.ts';
import { AUTH_MESSAGES, passwordMeetsRules } from './messages.ts';

export type SignUpInput = { username: string; email: string; password: string };
export type SignInInput = { email: string; password: string } | { username: string; password: string };
export type AccountInput = { username: string } | { email: string };
export type ResetInput = AccountInput & { code: string; password: string };
export type ChangePasswordInput = { currentPassword: string; newPassword: string };

export type SignInResult = { user: SessionUser; session: ProviderSession };

/**
 * The identity service's own step after a right password (Cognito's SOFTWARE_TOKEN_MFA): what
 * answering it takes, kept in the sign-in's challenge row until the code comes.
 */
export type PendingChallenge = { username: string; session: string; loginId: string };

/** Thrown by a provider's signIn when the identity service asks for an authenticator code. */
export class ProviderChallenge extends Error {
  readonly pending: PendingChallenge;
  constructor(pending: PendingChallenge) {
    super('The identity service asks for an authenticator code');
    this.pending = pending;
  }
}

export type CurrentUser = {
  userId: number;
  username: string | null;
  email: string;
  role: SessionUser['role'];
  signInDetails: SignInDetails | null;
};

export type ListedUser = SessionUser & { createdAt: string; emailVerified: boolean };

/**
 * One interface for every identity provider. Errors are kernel errors carrying the words of
 * SPEC §8; a failed sign-in is always a 401, so the rate limits count it.
 */
export interface IdentityProvider {
  readonly name: 'local' | 'cognito';
  signUp(input: SignUpInput): Promise<{ userId: number | string }>;
  confirmSignUp(input: { username: string; code: string }): Promise<void>;
  resendCode(input: { username: string }): Promise<void>;
  signIn(input: SignInInput): Promise<SignInResult>;
  forgotPassword(input: AccountInput): Promise<void>;
  /** Sets the new password with the mailed code and ends every session of the account. */
  confirmNewPassword(input: ResetInput): Promise<void>;
  changePassword(user: SessionUser, input: ChangePasswordInput): Promise<void>;
  /** Ends what the provider holds for this session (our own session is rotated by the caller). */
  signOut(session: ProviderSession): Promise<void>;
  currentUser(user: SessionUser | null, session: ProviderSession): Promise<CurrentUser | null>;
  listUsers(): Promise<ListedUser[]>;
  /**
   * For a provider with its own MFA: answers its challenge with an authenticator code (the
   * session on a right code, null on a wrong one), and sets an authenticator app up for the
   * signed-in account (a new key, then its first code turns it on).
   */
  answerChallenge?(pending: PendingChallenge, code: string): Promise<SignInResult | null>;
  associateTotp?(session: ProviderSession): Promise<string>;
  /** Deletes the account where the provider keeps it (Cognito's DeleteUser); a local row is ours to delete. */
  deleteAccount?(session: ProviderSession): Promise<void>;
  verifyTotp?(session: ProviderSession, code: string): Promise<void>;
}

export type UserRow = {
  id: number;
  email: string;
  username: string | null;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  role: 'user' | 'admin';
  email_verified: boolean;
  provider: 'local' | 'cognito';
  external_id: string | null;
  created_at: Date;
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

/** Server-side check of the password rules (SPEC §5), whatever the form or client did. */
export function assertStrongPassword(password: string): void {
  if (!passwordMeetsRules(password)) throw new Invalid(AUTH_MESSAGES.weakPassword);
}

export function describeCurrentUser(user: SessionUser | null, session: ProviderSession): CurrentUser | null {
  if (!user) return null;
  return {
    userId: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    signInDetails: session.signInDetails ?? null,
  };
}

/** The accounts of one provider, oldest first (at most 1000). */
export async function listUserRows(db: Db, provider: UserRow['provider']): Promise<ListedUser[]> {
  const rows: UserRow[] = await db('users').where({ provider }).orderBy('id').limit(1000);
  return rows.map((row) => ({
    ...presentUser(row),
    emailVerified: row.email_verified,
    createdAt: row.created_at.toISOString(),
  }));
}
