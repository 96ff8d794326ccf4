import { describe, expect, it } from 'vitest';
import { httpHeadersOf, httpStatusOf } from '../server/error-status.ts';
import { cognitoError } from './cognito-errors.ts';

/** What amazon-cognito-identity-js rejects with: an Error whose code is the exception name. */
const serviceError = (code: string, message = 'from Cognito') => Object.assign(new Error(message), { code });

const answer = (error: unknown) => ({
  status: httpStatusOf(error),
  message: (error as Error).message,
  headers: httpHeadersOf(error),
});

describe('Cognito errors in the words of SPEC §8', () => {
  it.each([
    [
      'UsernameExistsException',
      'signUp',
      409,
      'An account with this username already exists. Please choose a different username.',
    ],
    [
      'CodeMismatchException',
      'confirmSignUp',
      400,
      'Invalid verification code. Please check the code and try again.',
    ],
    [
      'ExpiredCodeException',
      'confirmNewPassword',
      400,
      'Verification code has expired. Please request a new code.',
    ],
    [
      'UserNotFoundException',
      'forgotPassword',
      404,
      'User not found. Please check your username or sign up again.',
    ],
    ['UserNotFoundException', 'signIn', 401, 'Failed to sign in. Please check your credentials.'],
    ['NotAuthorizedException', 'signIn', 401, 'Failed to sign in. Please check your credentials.'],
    ['NotAuthorizedException', 'confirmSignUp', 400, 'Invalid verification code provided, please try again.'],
    ['UserNotConfirmedException', 'signIn', 403, 'Please confirm your email address before signing in'],
    [
      'InvalidPasswordException',
      'signUp',
      400,
      'Password does not meet requirements. Please check the password criteria.',
    ],
    ['InvalidPasswordException', 'signIn', 401, 'Failed to sign in. Please check your credentials.'],
    ['PasswordResetRequiredException', 'signIn', 403, 'Sign in requires additional steps'],
    [
      'NotAuthorizedException',
      'answerChallenge',
      400,
      'The sign-in took too long. Please enter your password again.',
    ],
    [
      'EnableSoftwareTokenMFAException',
      'verifyTotp',
      400,
      'That code is not right, or it was already used. Try the next one.',
    ],
    [
      'CodeMismatchException',
      'verifyTotp',
      400,
      'That code is not right, or it was already used. Try the next one.',
    ],
  ] as const)('%s during %s → %i', (code, operation, status, message) => {
    expect(answer(cognitoError(serviceError(code), operation))).toMatchObject({ status, message });
  });

  it('names the parameter, passes unknown service messages through and asks to wait when throttled', () => {
    expect(
      answer(cognitoError(serviceError('InvalidParameterException', 'email is bad'), 'signUp')).message,
    ).toBe('Invalid parameter: email is bad');
    expect(
      answer(cognitoError(serviceError('SomethingNewException', 'Brand new reason'), 'signIn')),
    ).toMatchObject({ status: 400, message: 'Brand new reason' });
    expect(answer(cognitoError(serviceError('LimitExceededException'), 'forgotPassword'))).toEqual({
      status: 429,
      message: 'Too many attempts. Please wait a few minutes and try again.',
      headers: { 'Retry-After': '60' },
    });
  });

  it('answers 503 when Cognito cannot be reached and leaves our own bugs alone', () => {
    expect(answer(cognitoError(new Error('Network error'), 'signIn'))).toMatchObject({
      status: 503,
      message: 'Network error',
    });
    const bug = new TypeError('undefined is not a function');
    expect(cognitoError(bug, 'signIn')).toBe(bug);
  });
});
