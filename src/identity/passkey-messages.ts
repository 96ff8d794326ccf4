/**
 * Passkey strings, shared by the API, the Account page, the sign-in forms and the tests.
 * Free of zod: the browser's passkey ceremony imports them.
 */
export const PASSKEY_MESSAGES = {
  localOnly: 'Passkeys are for local accounts; Cognito accounts sign in through the pool.',
  malformed: 'The passkey’s answer is missing or malformed.',
  notVerified: 'The passkey could not be verified. Please try again.',
  unknown:
    'This passkey is not registered here. Sign in with your password, then add it on your Account page.',
  expired: 'The passkey request took too long or was already used. Please try again.',
  alreadyAdded: 'This passkey is already registered.',
  notFound: 'That passkey was not found.',
  nameNeeded: 'Give the passkey a name.',
  nameTooLong: 'Keep the passkey’s name under 60 characters.',
  nameInvalid: 'Use letters, digits, spaces and punctuation in the passkey’s name.',
  added: 'Passkey added.',
  removed: 'Passkey removed.',
  cancelled: 'The passkey request was cancelled or timed out.',
} as const;
