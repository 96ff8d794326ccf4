import {
  AppError,
  Conflict,
  Forbidden,
  Invalid,
  NotFound,
  RateLimited,
  type Refusal,
  Unauthorized,
  Unavailable,
} from '../kernel/errors.ts';
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

type Answer = { refuse: (text: string) => Refusal; message: string | ((serverMessage: string) => string) };

const as = (Kind: new (message: string) => Refusal) => (text: string) => new Kind(text);
// Cognito says nothing of when to try again: a minute is what its throttling usually lasts.
const tooManyTries = (text: string) => new RateLimited(text, 60);

const signInFailed: Answer = { refuse: as(Unauthorized), message: AUTH_MESSAGES.signInFailed };
const currentPasswordWrong: Answer = { refuse: as(Invalid), message: AUTH_MESSAGES.currentPasswordWrong };
const tooMany: Answer = {
  refuse: tooManyTries,
  message: 'Too many attempts. Please wait a few minutes and try again.',
};

/**
 * Cognito exception → our answer, in the words of SPEC §8: one table for every operation,
 * with a column for the operations where the same exception means something else.
 */
export const COGNITO_ERRORS: Record<string, Answer & { [operation in CognitoOperation]?: Answer }> = {
  UsernameExistsException: { refuse: as(Conflict), message: AUTH_MESSAGES.usernameTaken },
  AliasExistsException: { refuse: as(Conflict), message: AUTH_MESSAGES.emailTaken },
  CodeMismatchException: {
    refuse: as(Invalid),
    message: AUTH_MESSAGES.codeMismatch,
    verifyTotp: { refuse: as(Invalid), message: TWO_FACTOR_MESSAGES.codeWrong },
  },
  // Cognito's answer to a wrong first code of an authenticator app (VerifySoftwareToken).
  EnableSoftwareTokenMFAException: { refuse: as(Invalid), message: TWO_FACTOR_MESSAGES.codeWrong },
  ExpiredCodeException: { refuse: as(Invalid), message: AUTH_MESSAGES.codeExpired },
  UserNotFoundException: {
    refuse: as(NotFound),
    message: AUTH_MESSAGES.userNotFound,
    // An unknown account and a wrong password read the same at sign-in.
    signIn: signInFailed,
    currentPassword: currentPasswordWrong,
  },
  NotAuthorizedException: {
    refuse: as(Invalid),
    message: AUTH_MESSAGES.invalidCodeNotAuthorized,
    signIn: signInFailed,
    currentPassword: currentPasswordWrong,
    // The challenge's session ended (Cognito keeps it a few minutes): the password again.
    answerChallenge: { refuse: as(Invalid), message: TWO_FACTOR_MESSAGES.challengeExpired },
  },
  UserNotConfirmedException: { refuse: as(Forbidden), message: AUTH_MESSAGES.confirmFirst },
  InvalidPasswordException: {
    refuse: as(Invalid),
    message: AUTH_MESSAGES.weakPassword,
    // cognito-local answers a wrong password with InvalidPasswordException.
    signIn: signInFailed,
    currentPassword: currentPasswordWrong,
  },
  InvalidParameterException: { refuse: as(Invalid), message: (m) => `Invalid parameter: ${m}` },
  PasswordResetRequiredException: { refuse: as(Forbidden), message: AUTH_MESSAGES.additionalSteps },
  LimitExceededException: tooMany,
  TooManyRequestsException: tooMany,
  TooManyFailedAttemptsException: tooMany,
};

/**
 * Turns what amazon-cognito-identity-js rejected with into one of our errors. Unknown service
 * exceptions pass their own message through (SPEC §8 'Other server messages pass through').
 */
export function cognitoError(error: unknown, operation: CognitoOperation): unknown {
  if (error instanceof AppError) return error;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== 'string') {
    return message === 'Network error' ? new Unavailable(AUTH_MESSAGES.networkError) : error;
  }
  const row = COGNITO_ERRORS[code];
  const serverMessage = typeof message === 'string' && message ? message : code;
  if (!row) return new Invalid(serverMessage);
  const answer = row[operation] ?? row;
  const text = typeof answer.message === 'function' ? answer.message(serverMessage) : answer.message;
  return answer.refuse(text);
}
