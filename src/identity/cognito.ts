import {
  AuthenticationDetails,
  CognitoAccessToken,
  CognitoIdToken,
  CognitoRefreshToken,
  CognitoUser,
  CognitoUserAttribute,
  CognitoUserPool,
  CognitoUserSession,
  type IAuthenticationCallback,
  type ICognitoStorage,
  type ISignUpResult,
} from 'amazon-cognito-identity-js';
import { CognitoJwtVerifier, JwtRsaVerifier } from 'aws-jwt-verify';
import type { Config } from '../config.ts';
import type { Db } from '../db/knex.ts';
import { Conflict, Forbidden, Invalid, Unauthorized, UpstreamFailed } from '../kernel/errors.ts';
import type { ProviderSession, SessionUser } from '../kernel/request.ts';
import { type CognitoOperation, cognitoError } from './cognito-errors.ts';
import { AUTH_MESSAGES } from './messages.ts';
import {
  type AccountInput,
  assertStrongPassword,
  type ChangePasswordInput,
  describeCurrentUser,
  type IdentityProvider,
  listUserRows,
  type PendingChallenge,
  ProviderChallenge,
  presentUser,
  type ResetInput,
  type SignInInput,
  type SignInResult,
  type SignUpInput,
  type UserRow,
} from './provider.ts';

export type CognitoConfig = NonNullable<Config['cognito']>;

/** The group whose members are our admins. */
export const COGNITO_ADMIN_GROUP = 'admin';

type Claims = Record<string, unknown>;

/** Where amazon-cognito-identity-js keeps a challenge's session between the steps (not in its types). */
declare module 'amazon-cognito-identity-js' {
  interface CognitoUser {
    /** The pending challenge's session: the library keeps it here but leaves it out of its typings. */
    Session: string | null;
  }
}

/** A throwaway token cache per call: the library's default one is shared by every user of the process. */
function memoryStorage(): ICognitoStorage {
  const items = new Map<string, string>();
  return {
    setItem: (key, value) => void items.set(key, value),
    getItem: (key) => items.get(key) ?? null,
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

/**
 * Amazon Cognito accounts through amazon-cognito-identity-js, from the server: SRP against
 * Cognito, USER_PASSWORD_AUTH against an emulator (COGNITO_ENDPOINT), which has no SRP. The
 * id token is verified, then the user is mirrored into `users` (provider 'cognito'), so our
 * own sessions work as with local accounts; the `admin` group makes an admin.
 */
export class CognitoIdentityProvider implements IdentityProvider {
  readonly name = 'cognito';
  private readonly db: Db;
  private readonly config: CognitoConfig;
  private readonly pool: CognitoUserPool;
  private verifier: Promise<(token: string) => Promise<Claims>> | undefined;

  constructor(db: Db, config: CognitoConfig) {
    this.db = db;
    this.config = config;
    this.pool = new CognitoUserPool({
      UserPoolId: config.userPoolId,
      ClientId: config.clientId,
      endpoint: config.endpoint ?? `https://cognito-idp.${config.region}.amazonaws.com/`,
      Storage: memoryStorage(),
    });
  }

  async signUp(input: SignUpInput): Promise<{ userId: string }> {
    assertStrongPassword(input.password);
    const attributes = [
      new CognitoUserAttribute({ Name: 'email', Value: input.email }),
      new CognitoUserAttribute({ Name: 'preferred_username', Value: input.username }),
    ];
    const result = await call<ISignUpResult>('signUp', (done) =>
      this.pool.signUp(input.username, input.password, attributes, [], done),
    );
    return { userId: result.userSub };
  }

  async confirmSignUp(input: { username: string; code: string }): Promise<void> {
    await call('confirmSignUp', (done) =>
      this.user(input.username).confirmRegistration(input.code, false, done),
    );
  }

  async resendCode(input: { username: string }): Promise<void> {
    await call('resendCode', (done) => this.user(input.username).resendConfirmationCode(done));
  }

  async signIn(input: SignInInput): Promise<SignInResult> {
    const username = await this.cognitoUsername(input);
    const loginId = 'email' in input ? input.email : input.username;
    const { session } = await this.authenticate(username, input.password, 'signIn', loginId);
    return this.signedIn(session, loginId);
  }

  /** The second step of a sign-in Cognito challenged (SOFTWARE_TOKEN_MFA): null on a wrong code. */
  async answerChallenge(pending: PendingChallenge, code: string): Promise<SignInResult | null> {
    const cognitoUser = this.user(pending.username);
    cognitoUser.Session = pending.session;
    const session = await new Promise<CognitoUserSession | null>((resolve, reject) =>
      cognitoUser.sendMFACode(
        code.replace(/\s/g, ''),
        {
          onSuccess: resolve,
          onFailure: (error) =>
            (error as { code?: string }).code === 'CodeMismatchException'
              ? resolve(null)
              : reject(cognitoError(error, 'answerChallenge')),
        },
        'SOFTWARE_TOKEN_MFA',
      ),
    );
    return session && this.signedIn(session, pending.loginId);
  }

  /** A new authenticator key for the signed-in account (AssociateSoftwareToken). */
  async associateTotp(session: ProviderSession): Promise<string> {
    const cognitoUser = await this.restoreUser(session);
    return new Promise((resolve, reject) =>
      cognitoUser.associateSoftwareToken({
        associateSecretCode: resolve,
        onFailure: (error) => reject(cognitoError(error, 'associateTotp')),
      }),
    );
  }

  /** The key's first code (VerifySoftwareToken), then the app becomes the account's MFA. */
  async verifyTotp(session: ProviderSession, code: string): Promise<void> {
    const cognitoUser = await this.restoreUser(session);
    await new Promise<void>((resolve, reject) =>
      cognitoUser.verifySoftwareToken(code.replace(/\s/g, ''), 'Penstand', {
        onSuccess: () => resolve(),
        onFailure: (error) => reject(cognitoError(error, 'verifyTotp')),
      }),
    );
    // A verified app is not asked for at sign-in until it is the account's MFA preference.
    await call('verifyTotp', (done) =>
      cognitoUser.setUserMfaPreference(null, { Enabled: true, PreferredMfa: true }, done),
    );
  }

  async forgotPassword(input: AccountInput): Promise<void> {
    const user = this.user(await this.cognitoUsername(input));
    await call('forgotPassword', (done) =>
      user.forgotPassword({ onSuccess: () => done(null), onFailure: (error) => done(error) }),
    );
  }

  async confirmNewPassword(input: ResetInput): Promise<void> {
    assertStrongPassword(input.password);
    const username = await this.cognitoUsername(input);
    const user = this.user(username);
    await call('confirmNewPassword', (done) =>
      user.confirmPassword(input.code, input.password, {
        onSuccess: () => done(null),
        onFailure: (error) => done(error),
      }),
    );
    // Our sessions of the account end, as with a local reset.
    await this.db('sessions')
      .whereIn('user_id', this.db('users').select('id').where({ provider: 'cognito', username }))
      .delete();
  }

  /** Proves the current password with a fresh sign-in, then asks Cognito to change it. */
  async changePassword(user: SessionUser, input: ChangePasswordInput): Promise<void> {
    assertStrongPassword(input.newPassword);
    const row: UserRow | undefined = await this.db('users')
      .where({ id: user.id, provider: 'cognito' })
      .first();
    if (!row?.username) throw new Invalid(AUTH_MESSAGES.currentPasswordWrong);
    const { cognitoUser } = await this.authenticate(row.username, input.currentPassword, 'currentPassword');
    await call('changePassword', (done) =>
      cognitoUser.changePassword(input.currentPassword, input.newPassword, done),
    );
  }

  /** The signed-in account leaves the pool (DeleteUser with its own tokens): it cannot sign in again. */
  async deleteAccount(session: ProviderSession): Promise<void> {
    const user = await this.restoreUser(session);
    await call('deleteUser', (done) => user.deleteUser(done));
  }

  /**
   * Revokes the refresh token where the pool allows it (tokens with origin_jti). Failure is not
   * the visitor's problem: our session ends anyway and the Cognito tokens expire on their own.
   */
  async signOut(session: ProviderSession): Promise<void> {
    if (!session.cognito) return;
    try {
      const user = await this.restoreUser(session);
      await new Promise<void>((resolve, reject) =>
        user.signOut((error?: Error) => (error ? reject(error) : resolve())),
      );
    } catch {
      // See above: nothing the visitor could do about it.
    }
  }

  async currentUser(user: SessionUser | null, session: ProviderSession) {
    return describeCurrentUser(user, session);
  }

  listUsers() {
    return listUserRows(this.db, 'cognito');
  }

  /** The signed-in account of our session, with its Cognito tokens (refreshed when expired). */
  private async restoreUser(session: ProviderSession): Promise<CognitoUser> {
    const tokens = session.cognito;
    if (!tokens) throw new Unauthorized('Please sign in first.');
    const idToken = new CognitoIdToken({ IdToken: tokens.idToken });
    const restored = new CognitoUserSession({
      IdToken: idToken,
      AccessToken: new CognitoAccessToken({ AccessToken: tokens.accessToken }),
      RefreshToken: new CognitoRefreshToken({ RefreshToken: tokens.refreshToken }),
    });
    const user = this.user(String(idToken.payload['cognito:username']));
    user.setSignInUserSession(restored);
    if (!restored.isValid())
      await call('refreshSession', (done) => user.refreshSession(restored.getRefreshToken(), done));
    return user;
  }

  /** Our account for a Cognito session: the id token verified and mirrored, the tokens kept. */
  private async signedIn(session: CognitoUserSession, loginId: string): Promise<SignInResult> {
    const user = await this.mirror(await this.verifyIdToken(session.getIdToken().getJwtToken()));
    return {
      user,
      session: {
        signInDetails: { loginId, authFlowType: this.authFlowType() },
        cognito: {
          idToken: session.getIdToken().getJwtToken(),
          accessToken: session.getAccessToken().getJwtToken(),
          refreshToken: session.getRefreshToken().getToken(),
        },
      },
    };
  }

  private user(username: string): CognitoUser {
    return new CognitoUser({ Username: username, Pool: this.pool, Storage: memoryStorage() });
  }

  private authFlowType(): 'USER_SRP_AUTH' | 'USER_PASSWORD_AUTH' {
    return this.config.endpoint ? 'USER_PASSWORD_AUTH' : 'USER_SRP_AUTH';
  }

  /**
   * Cognito signs in by username; an email address becomes the username of the account
   * mirrored with it, or is passed on as it is (pools with the email alias accept it).
   */
  private async cognitoUsername(input: AccountInput): Promise<string> {
    if ('username' in input) return input.username;
    const row = await this.db('users')
      .where({ provider: 'cognito' })
      .whereRaw('lower(email) = lower(?)', [input.email])
      .first('username');
    return row?.username ?? input.email;
  }

  /**
   * The password step. At sign-in, Cognito asking for an authenticator code (SOFTWARE_TOKEN_MFA,
   * or SELECT_MFA_TYPE offering it, which is answered with it) becomes a ProviderChallenge for
   * the code's own request; any other step is one this app does not take.
   */
  private authenticate(
    username: string,
    password: string,
    operation: CognitoOperation,
    loginId = username,
  ): Promise<{ cognitoUser: CognitoUser; session: CognitoUserSession }> {
    const cognitoUser = this.user(username);
    cognitoUser.setAuthenticationFlowType(this.authFlowType());
    const details = new AuthenticationDetails({ Username: username, Password: password });
    return new Promise((resolve, reject) => {
      const moreSteps = () => reject(new Forbidden(AUTH_MESSAGES.additionalSteps));
      const codeAsked = (_name: unknown, parameters?: { USER_ID_FOR_SRP?: string }) =>
        operation === 'signIn'
          ? reject(
              new ProviderChallenge({
                username: parameters?.USER_ID_FOR_SRP ?? username,
                session: cognitoUser.Session ?? '',
                loginId,
              }),
            )
          : moreSteps();
      const callbacks: IAuthenticationCallback = {
        onSuccess: (session) => resolve({ cognitoUser, session }),
        onFailure: (error) => reject(cognitoError(error, operation)),
        newPasswordRequired: moreSteps,
        mfaRequired: moreSteps,
        totpRequired: codeAsked,
        customChallenge: moreSteps,
        mfaSetup: moreSteps,
        // MFAS_CAN_CHOOSE is a JSON list such as ["SMS_MFA","SOFTWARE_TOKEN_MFA"].
        selectMFAType: (_name, parameters?: { MFAS_CAN_CHOOSE?: string }) =>
          String(parameters?.MFAS_CAN_CHOOSE ?? '').includes('"SOFTWARE_TOKEN_MFA"')
            ? cognitoUser.sendMFASelectionAnswer('SOFTWARE_TOKEN_MFA', callbacks)
            : moreSteps(),
      };
      cognitoUser.authenticateUser(details, callbacks);
    });
  }

  /**
   * The id token's claims, checked with aws-jwt-verify: against Cognito's published keys, or,
   * only when COGNITO_ENDPOINT names an emulator, against the emulator's keys and issuer.
   */
  private verifyIdToken(token: string): Promise<Claims> {
    this.verifier ??= this.createVerifier().catch((error) => {
      this.verifier = undefined;
      throw error;
    });
    return this.verifier.then((verify) =>
      verify(token).catch(() => {
        throw new UpstreamFailed('The identity service answered with a token that could not be verified.');
      }),
    );
  }

  private async createVerifier(): Promise<(token: string) => Promise<Claims>> {
    const { userPoolId, clientId, endpoint } = this.config;
    if (!endpoint) {
      const verifier = CognitoJwtVerifier.create({ userPoolId, clientId, tokenUse: 'id' });
      return (token) => verifier.verify(token);
    }
    // CognitoJwtVerifier accepts neither an emulator's pool ids (local_…) nor http.
    const issuer = `${endpoint.replace(/\/$/, '')}/${userPoolId}`;
    const verifier = JwtRsaVerifier.create({
      issuer,
      audience: clientId,
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'id') throw new Error('not an id token');
      },
    });
    const jwks = await fetch(`${issuer}/.well-known/jwks.json`);
    if (!jwks.ok) throw new Error(`Cognito emulator JWKS: HTTP ${jwks.status}`);
    verifier.cacheJwks(await jwks.json());
    return (token) => verifier.verify(token);
  }

  /** Creates or refreshes the account's row: username, email and role follow Cognito at every sign-in. */
  private async mirror(claims: Claims): Promise<SessionUser> {
    const groups = Array.isArray(claims['cognito:groups']) ? claims['cognito:groups'] : [];
    const fields = {
      username: String(claims['cognito:username']),
      email: String(claims.email ?? ''),
      role: groups.includes(COGNITO_ADMIN_GROUP) ? 'admin' : 'user',
      email_verified: claims.email_verified === true,
    };
    if (!fields.email) throw new UpstreamFailed('The identity service returned no email address.');
    try {
      const [row] = await this.db('users')
        .insert({ ...fields, provider: 'cognito', external_id: String(claims.sub) })
        .onConflict('external_id')
        .merge({ ...fields, updated_at: this.db.fn.now() })
        .returning('*');
      return presentUser(row);
    } catch (error) {
      // Another account of ours (local, or an earlier Cognito user) holds the name or address.
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code !== '23505') throw error;
      throw new Conflict(
        constraint === 'users_email_lower_idx' ? AUTH_MESSAGES.emailTaken : AUTH_MESSAGES.usernameTaken,
      );
    }
  }
}

/** Promisifies a library call, mapping its errors through the one table. */
function call<T = unknown>(
  operation: CognitoOperation,
  run: (done: (error: unknown, result?: T) => void) => void,
): Promise<T> {
  return new Promise((resolve, reject) =>
    run((error, result) => (error ? reject(cognitoError(error, operation)) : resolve(result as T))),
  );
}
