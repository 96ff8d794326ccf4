import {
  AuthenticationDetails,
  CognitoAccessToken,
  CognitoIdToken,
  CognitoRefreshToken,
  CognitoUser,
  CognitoUserAttribute,
  CognitoUserPool,
  CognitoUserSession,
  type ICognitoStorage,
  type ISignUpResult,
} from 'amazon-cognito-identity-js';
import { CognitoJwtVerifier, JwtRsaVerifier } from 'aws-jwt-verify';
import type { Config } from '../config.ts';
import type { Db } from '../db/knex.ts';
import { HttpError } from '../server/middleware.ts';
import { type CognitoOperation, cognitoError } from './cognito-errors.ts';
import { AUTH_MESSAGES } from './messages.ts';
import {
  type AccountInput,
  assertStrongPassword,
  type ChangePasswordInput,
  describeCurrentUser,
  type IdentityProvider,
  listUserRows,
  type ProviderSession,
  presentUser,
  type ResetInput,
  type SignInInput,
  type SignInResult,
  type SignUpInput,
  type UserRow,
} from './provider.ts';
import type { SessionUser } from './sessions.ts';

export type CognitoConfig = NonNullable<Config['cognito']>;

/** The group whose members are our admins. */
export const COGNITO_ADMIN_GROUP = 'admin';

type Claims = Record<string, unknown>;

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
    const { session } = await this.authenticate(username, input.password, 'signIn');
    const user = await this.mirror(await this.verifyIdToken(session.getIdToken().getJwtToken()));
    return {
      user,
      session: {
        signInDetails: {
          loginId: 'email' in input ? input.email : input.username,
          authFlowType: this.authFlowType(),
        },
        cognito: {
          idToken: session.getIdToken().getJwtToken(),
          accessToken: session.getAccessToken().getJwtToken(),
          refreshToken: session.getRefreshToken().getToken(),
        },
      },
    };
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
    if (!row?.username) throw new HttpError(400, AUTH_MESSAGES.currentPasswordWrong);
    const { cognitoUser } = await this.authenticate(row.username, input.currentPassword, 'currentPassword');
    await call('changePassword', (done) =>
      cognitoUser.changePassword(input.currentPassword, input.newPassword, done),
    );
  }

  /**
   * Revokes the refresh token where the pool allows it (tokens with origin_jti). Failure is not
   * the visitor's problem: our session ends anyway and the Cognito tokens expire on their own.
   */
  async signOut(session: ProviderSession): Promise<void> {
    const tokens = session.cognito;
    if (!tokens) return;
    const idToken = new CognitoIdToken({ IdToken: tokens.idToken });
    const restored = new CognitoUserSession({
      IdToken: idToken,
      AccessToken: new CognitoAccessToken({ AccessToken: tokens.accessToken }),
      RefreshToken: new CognitoRefreshToken({ RefreshToken: tokens.refreshToken }),
    });
    const user = this.user(String(idToken.payload['cognito:username']));
    user.setSignInUserSession(restored);
    try {
      if (!restored.isValid()) {
        await call('refreshSession', (done) => user.refreshSession(restored.getRefreshToken(), done));
      }
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

  private authenticate(
    username: string,
    password: string,
    operation: CognitoOperation,
  ): Promise<{ cognitoUser: CognitoUser; session: CognitoUserSession }> {
    const cognitoUser = this.user(username);
    cognitoUser.setAuthenticationFlowType(this.authFlowType());
    const details = new AuthenticationDetails({ Username: username, Password: password });
    return new Promise((resolve, reject) => {
      const moreSteps = () => reject(new HttpError(403, AUTH_MESSAGES.additionalSteps));
      cognitoUser.authenticateUser(details, {
        onSuccess: (session) => resolve({ cognitoUser, session }),
        onFailure: (error) => reject(cognitoError(error, operation)),
        newPasswordRequired: moreSteps,
        mfaRequired: moreSteps,
        totpRequired: moreSteps,
        customChallenge: moreSteps,
        mfaSetup: moreSteps,
        selectMFAType: moreSteps,
      });
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
        throw new HttpError(502, 'The identity service answered with a token that could not be verified.');
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
    if (!fields.email) throw new HttpError(502, 'The identity service returned no email address.');
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
      throw new HttpError(
        409,
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
