import { data, type RouterContextProvider } from 'react-router';
import { AUTH_MESSAGES } from '../identity/messages.ts';
import { PASSKEY_MESSAGES } from '../identity/passkey-messages.ts';
import { passkeyLoginSchema } from '../identity/passkey-schemas.ts';
import { signInSchema } from '../identity/schemas.ts';
import { signIn, signInWithCode, signInWithPasskey } from '../identity/service.ts';
import { TWO_FACTOR_MESSAGES, TwoFactorRequired } from '../identity/two-factor.ts';
import { httpHeadersOf, httpStatusOf } from '../server/error-status.ts';
import { safeRedirect } from './auth.server.ts';
import { getApp } from './context.ts';
import { redirectWithToast } from './toast.server.ts';

/** A refused form: its message, and for sign-in what was typed as the identifier. */
export type FormError = { error: string; identifier?: string };
/** A sign-in form's answer: an error, or the second step's challenge (two-factor accounts). */
export type SignInStep = { error?: string; identifier?: string; challengeId?: string };

/**
 * Turns a thrown refusal into the form's error message (with `extra` fields, such as what was
 * typed, for a form posted without JavaScript); anything else is re-thrown.
 */
export function formError<Extra extends Record<string, unknown>>(
  error: unknown,
  fallback: string,
  extra: Extra = {} as Extra,
) {
  const status = httpStatusOf(error);
  if (status >= 400 && status < 500) {
    const init: ResponseInit = { status };
    const retry = httpHeadersOf(error)['Retry-After'];
    if (retry) init.headers = { 'Retry-After': retry };
    return data({ ...extra, error: (error as Error).message || fallback }, init);
  }
  throw error;
}

/** A form field carrying JSON (a WebAuthn answer): its value, or undefined when it is not JSON. */
export function parseJsonField(value: FormDataEntryValue | null): unknown {
  if (typeof value !== 'string' || value.length > 64 * 1024) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** Where a signed-in user goes: admins to /admin (or the admin page they asked for), others back. */
export function signInDestination(role: string, redirectTo: FormDataEntryValue | null): string {
  const asked = safeRedirect(redirectTo, '');
  if (role === 'admin')
    return asked === '/admin' || asked.startsWith('/admin/') || asked.startsWith('/admin?')
      ? asked
      : '/admin';
  return asked || '/';
}

/**
 * The sign-in forms (modal, /login, /amplify-login): admins land on /admin, others where they
 * were (the modal sends the current page as redirectTo). A refusal gives back what was typed.
 */
export async function signInAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  by: 'email' | 'username',
) {
  const { services, state } = getApp(context);
  const form = await request.formData();
  const welcome = (role: string) =>
    redirectWithToast(signInDestination(role, form.get('redirectTo')), {
      ...AUTH_MESSAGES.welcomeBack,
      type: 'success',
    });
  if (form.get('intent') === 'totp') {
    // The second step: the challenge of a right password, and the authenticator's code.
    const challengeId = String(form.get('challengeId') ?? '').slice(0, 100);
    try {
      const { user } = await signInWithCode(
        services,
        state,
        challengeId,
        String(form.get('code') ?? '').slice(0, 20),
      );
      return welcome(user.role);
    } catch (error) {
      const expired = (error as Error).message === TWO_FACTOR_MESSAGES.challengeExpired;
      return formError(error, TWO_FACTOR_MESSAGES.codeWrong, expired ? {} : { challengeId });
    }
  }
  if (form.get('intent') === 'passkey') {
    // The browser's answer to the passkey prompt (see PasskeySignIn), as JSON.
    try {
      const parsed = passkeyLoginSchema.safeParse({ response: parseJsonField(form.get('response')) });
      if (!parsed.success)
        return data({ error: PASSKEY_MESSAGES.malformed } satisfies FormError, { status: 400 });
      const { user } = await signInWithPasskey(services, state, parsed.data.response);
      return welcome(user.role);
    } catch (error) {
      return formError(error, PASSKEY_MESSAGES.notVerified);
    }
  }
  const identifier = String(form.get(by) ?? '').slice(0, 254);
  const parsed = signInSchema.safeParse({ [by]: form.get(by) ?? '', password: form.get('password') ?? '' });
  if (!parsed.success)
    return data({ error: parsed.error.issues[0].message, identifier } satisfies FormError, { status: 400 });
  try {
    const { user } = await signIn(services, state, parsed.data);
    return welcome(user.role);
  } catch (error) {
    if (error instanceof TwoFactorRequired) return { challengeId: error.challengeId, identifier };
    return formError(error, AUTH_MESSAGES.signInFailed, { identifier });
  }
}
