/** Identity strings, word for word from SPEC §2, §5 and §8. */
export const AUTH_MESSAGES = {
  welcomeBack: { title: 'Welcome back!', description: 'You have successfully signed in.' },
  signInFailed: 'Failed to sign in. Please check your credentials.',
  confirmFirst: 'Please confirm your email address before signing in',
  usernameTaken: 'An account with this username already exists. Please choose a different username.',
  invalidEmail: 'Invalid email address format. Please check your email and try again.',
  invalidUsername: 'Invalid username format. Please use only letters, numbers, underscore, or hyphen.',
  weakPassword: 'Password does not meet requirements. Please check the password criteria.',
  codeMismatch: 'Invalid verification code. Please check the code and try again.',
  codeExpired: 'Verification code has expired. Please request a new code.',
  userNotFound: 'User not found. Please check your username or sign up again.',
  signUpFailed: 'Failed to create account',
  confirmFailed: 'Failed to confirm email',
  sendResetFailed: 'Failed to send reset code',
  resetFailed: 'Failed to reset password',
  resetSuccess: 'Password reset successful',
  /** The same answer whether or not the account exists: the reset form tells no one who has one. */
  resetCodeMaybeSent: (by: 'email' | 'username') =>
    `If an account exists for that ${by === 'email' ? 'address' : 'username'}, a code is on its way`,
  passwordsDoNotMatch: 'Passwords do not match',
  passwordRequirements: 'Password does not meet requirements',
  signOutFailed: 'Failed to sign out',
  emailTaken: 'An account with this email address already exists.',
  currentPasswordWrong: 'The current password is not correct.',
  additionalSteps: 'Sign in requires additional steps',
  invalidCodeNotAuthorized: 'Invalid verification code provided, please try again.',
  networkError: 'Network error',
} as const;

/** The new-password rules (SPEC §5), each with the text the live checklist shows. */
export const PASSWORD_RULES = [
  { id: 'length', label: 'At least 8 characters', test: (p: string) => p.length >= 8 },
  { id: 'upper', label: 'One uppercase letter', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'lower', label: 'One lowercase letter', test: (p: string) => /[a-z]/.test(p) },
  { id: 'digit', label: 'One number', test: (p: string) => /\d/.test(p) },
  {
    id: 'special',
    label: 'One special character (!@#$%^&*(),.?":{}|<>)',
    test: (p: string) => /[!@#$%^&*(),.?":{}|<>]/.test(p),
  },
] as const;

export function passwordMeetsRules(password: string): boolean {
  return password.length <= 256 && PASSWORD_RULES.every((rule) => rule.test(password));
}

/** The Account page's own words (profile, avatar, password, deletion), shared by its actions, the API and tests. */
export const ACCOUNT_MESSAGES = {
  profileSaved: 'Your profile is saved.',
  nameTooLong: 'A name can be at most 100 characters.',
  usernameFixed: 'Your username comes from the identity service and cannot be changed here.',
  avatarSaved: 'Your avatar is saved.',
  avatarRemoved: 'Your avatar is removed.',
  passwordChanged: 'Password changed. Your other sessions were signed out.',
  deleteConfirmRequired: 'Type your email address to confirm.',
  deleteConfirmMismatch: 'That is not the email address of this account: type it exactly as shown.',
  adminCannotDelete:
    'An admin account cannot be deleted from this page: hand the admin role to someone else first.',
  deleted: 'Your account is deleted. A confirmation is on its way to your inbox.',
} as const;

/** Two-factor changes as the audit log names them, by the API action or the Account page's intent. */
export const TWO_FACTOR_AUDIT: Partial<Record<string, string>> = {
  '2fa-setup': 'Two-factor setup started',
  '2fa-enable': 'Two-factor sign-in turned on',
  '2fa-disable': 'Two-factor sign-in turned off',
};
