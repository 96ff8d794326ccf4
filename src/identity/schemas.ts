import { z } from 'zod';
import { ACCOUNT_MESSAGES, AUTH_MESSAGES, passwordMeetsRules } from './messages.ts';

const username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .max(64, AUTH_MESSAGES.invalidUsername)
  .regex(/^[A-Za-z0-9_-]+$/, AUTH_MESSAGES.invalidUsername);
const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, AUTH_MESSAGES.invalidEmail)
  .pipe(z.email(AUTH_MESSAGES.invalidEmail));
const password = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .max(256, 'Password is too long');
const newPassword = z
  .string({ error: 'Password is required' })
  .refine(passwordMeetsRules, AUTH_MESSAGES.weakPassword);
/** Six digits; spaces a mail client or a paste adds ('856 582', ' 856582') are dropped. */
const code = z
  .string({ error: 'Verification code is required' })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, AUTH_MESSAGES.codeMismatch));

/** One schema per identity form, shared by the actions and the API. */
export const signInSchema = z.union([z.object({ email, password }), z.object({ username, password })]);
export const signUpSchema = z.object({ username, email, password: newPassword });
export const confirmSchema = z.object({ username, code });
export const changePasswordSchema = z.object({ currentPassword: password, newPassword });
export const resendSchema = z.object({ username });
export const forgotSchema = z.union([z.object({ username }), z.object({ email })]);
export const resetSchema = z.union([
  z.object({ username, code, password: newPassword }),
  z.object({ email, code, password: newPassword }),
]);

/** An authenticator's 6 digits or a recovery code ('ab12c-3de45'). */
const secondFactor = z
  .string({ error: 'Enter the 6-digit code from your authenticator app, or a recovery code.' })
  .trim()
  .min(6, 'Enter the 6-digit code from your authenticator app, or a recovery code.')
  .max(20, 'That code is not right, or it was already used. Try the next one.');
export const twoFactorCodeSchema = z.object({ code: secondFactor });
export const twoFactorLoginSchema = z.object({
  challengeId: z.string({ error: 'challengeId is required' }).min(1, 'challengeId is required').max(100),
  code: secondFactor,
});

const personName = z.string().trim().max(100, ACCOUNT_MESSAGES.nameTooLong).default('');
/** The Account page's profile: a name (either part may be empty) and the username. */
export const profileSchema = z.object({ firstName: personName, lastName: personName, username });
/** Deleting an account is confirmed by typing its email address. */
export const deleteAccountSchema = z.object({
  confirmEmail: z
    .string({ error: ACCOUNT_MESSAGES.deleteConfirmRequired })
    .trim()
    .min(1, ACCOUNT_MESSAGES.deleteConfirmRequired)
    .max(254, ACCOUNT_MESSAGES.deleteConfirmMismatch),
});
