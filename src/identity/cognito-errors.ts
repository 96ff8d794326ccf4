import { HttpError } from '../server/middleware.ts';
import { AUTH_MESSAGES } from './messages.ts';
import { TWO_FACTOR_MESSAGES } from './two-factor.ts';

/** The identity operations whose errors read differently (a wrong password is not a bad code). */
export type CognitoOperation =
  | 'signUp'
  | 'confirmSignUp'
  | 'resendCode'
  | 'signIn'
  | 'forgotPassword'
  | 'confirmNewPassword'
  | 'currentPassword'
  | 'answerChallenge'
  | 'associateTotp'
  | 'verifyTotp'
  | 'changePassword'
  | 'deleteUser'
  | 'refreshSession';

type Answer = { status: number; message: string | ((serverMessage: string) => string) };

const signInFailed: Answer = { status: 401, message: AUTH_MESSAGES.signInFailed };
const currentPasswordWrong: Answer = { status: 400, message: AUTH_MESSAGES.currentPasswordWrong };
const tooMany: Answer = {
  status: 429,
  message: 'Too many attempts. Please wait a few minutes and try again.',
};

/**
 * Cognito exception → our answer, in the words of SPEC §8: one table for every operation,
 * with a column for the operations where the same exception means something else.
 */
export const COGNITO_ERRORS: Record<string, Answer & { [operation in CognitoOperation]?: Answer }> = {
  UsernameExistsException: { status: 409, message: AUTH_MESSAGES.usernameTaken },
  AliasExistsException: { status: 409, message: AUTH_MESSAGES.emailTaken },
  CodeMismatchException: {
    status: 400,
    message: AUTH_MESSAGES.codeMismatch,
    verifyTotp: { status: 400, message: TWO_FACTOR_MESSAGES.codeWrong },
  },
  // Cognito's answer to a wrong first code of an authenticator app (VerifySoftwareToken).
  EnableSoftwareTokenMFAException: { status: 400, message: TWO_FACTOR_MESSAGES.codeWrong },
  ExpiredCodeException: { status: 400, message: AUTH_MESSAGES.codeExpired },
  UserNotFoundException: {
    status: 404,
    message: AUTH_MESSAGES.userNotFound,
    // An unknown account and a wrong password read the same at sign-in.
    signIn: signInFailed,
    currentPassword: currentPasswordWrong,
  },
  NotAuthorizedException: {
    status: 400,
    message: AUTH_MESSAGES.invalidCodeNotAuthorized,
    signIn: signInFailed,
    currentPassword: currentPasswordWrong,
    // The challenge's session ended (Cognito keeps it a few minutes): the password again.
    answerChallenge: { status: 400, message: TWO_FACTOR_MESSAGES.challengeExpired },
  },
  UserNotConfirmedException: { status: 403, message: AUTH_MESSAGES.confirmFirst },
  InvalidPasswordException: {
    status: 400,
    message: AUTH_MESSAGES.weakPassword,
    // cognito-local answers a wrong password with InvalidPasswordException.
    signIn: signInFailed,
    currentPassword: currentPasswordWrong,
  },
  InvalidParameterException: { status: 400, message: (m) => `Invalid parameter: ${m}` },
  PasswordResetRequiredException: { status: 403, message: AUTH_MESSAGES.additionalSteps },
  LimitExceededException: tooMany,
  TooManyRequestsException: tooMany,
  TooManyFailedAttemptsException: tooMany,
};

/**
 * Turns what amazon-cognito-identity-js rejected with into an HttpError. Unknown service
 * exceptions pass their own message through (SPEC §8 'Other server messages pass through').
 */
export function cognitoError(error: unknown, operation: CognitoOperation): unknown {
  if (error instanceof HttpError) return error;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') {
    return message === 'Network error' ? new HttpError(503, AUTH_MESSAGES.networkError) : error;
  }
  const row = COGNITO_ERRORS[code];
  const serverMessage = typeof message === 'string' && message ? message : code;
  if (!row) return new HttpError(400, serverMessage);
  const answer = row[operation] ?? row;
  const text = typeof answer.message === 'function' ? answer.message(serverMessage) : answer.message;
  return new HttpError(answer.status, text, answer.status === 429 ? { 'Retry-After': '60' } : {});
}
