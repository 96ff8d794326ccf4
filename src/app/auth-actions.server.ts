import { data, type RouterContextProvider } from 'react-router';
import { AUTH_MESSAGES } from '../identity/messages.ts';
import { signInSchema } from '../identity/schemas.ts';
import { signIn } from '../identity/service.ts';
import { safeRedirect } from './auth.server.ts';
import { getApp } from './context.ts';
import { redirectWithToast } from './toast.server.ts';

export type FormError = { error: string };

/** Turns a thrown HttpError into the form's error message; anything else is re-thrown. */
export function formError(error: unknown, fallback: string) {
  const status = (error as { status?: number }).status;
  if (status && status >= 400 && status < 500) {
    const init: ResponseInit = { status };
    const retry = (error as { headers?: Record<string, string> }).headers?.['Retry-After'];
    if (retry) init.headers = { 'Retry-After': retry };
    return data({ error: (error as Error).message || fallback } satisfies FormError, init);
  }
  throw error;
}

/** The sign-in forms (modal, /login, /amplify-login): admins land on /admin, others where they were. */
export async function signInAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  by: 'email' | 'username',
) {
  const { services, state } = getApp(context);
  const form = await request.formData();
  const parsed = signInSchema.safeParse({ [by]: form.get(by) ?? '', password: form.get('password') ?? '' });
  if (!parsed.success)
    return data({ error: parsed.error.issues[0].message } satisfies FormError, { status: 400 });
  try {
    const { user } = await signIn(services, state, parsed.data);
    const fallback = user.role === 'admin' ? '/admin' : '/';
    return redirectWithToast(safeRedirect(form.get('redirectTo'), fallback), {
      ...AUTH_MESSAGES.welcomeBack,
      type: 'success',
    });
  } catch (error) {
    return formError(error, AUTH_MESSAGES.signInFailed);
  }
}
