import type { Db } from '../db/knex.ts';
import type { CognitoConfig, CognitoIdentityProvider } from './cognito.ts';
import type { IdentityProvider } from './provider.ts';

/**
 * The Cognito provider with its SDKs loaded on first use, so a process that never signs anyone
 * in through Cognito (every web process of a deployment on local accounts, most requests of one
 * on Cognito) does not carry them: about 40 MB of memory.
 */
export function lazyCognitoProvider(db: Db, config: CognitoConfig): IdentityProvider {
  let loaded: Promise<CognitoIdentityProvider> | undefined;
  const real = () =>
    (loaded ??= import('./cognito.ts').then(
      ({ CognitoIdentityProvider }) => new CognitoIdentityProvider(db, config),
    ));
  return {
    name: 'cognito',
    signUp: async (input) => (await real()).signUp(input),
    confirmSignUp: async (input) => (await real()).confirmSignUp(input),
    resendCode: async (input) => (await real()).resendCode(input),
    signIn: async (input) => (await real()).signIn(input),
    forgotPassword: async (input) => (await real()).forgotPassword(input),
    confirmNewPassword: async (input) => (await real()).confirmNewPassword(input),
    changePassword: async (user, input) => (await real()).changePassword(user, input),
    signOut: async (session) => (await real()).signOut(session),
    currentUser: async (user, session) => (await real()).currentUser(user, session),
    listUsers: async () => (await real()).listUsers(),
    answerChallenge: async (pending, code) => (await real()).answerChallenge(pending, code),
    associateTotp: async (session) => (await real()).associateTotp(session),
    verifyTotp: async (session, code) => (await real()).verifyTotp(session, code),
    deleteAccount: async (session) => (await real()).deleteAccount(session),
  };
}
