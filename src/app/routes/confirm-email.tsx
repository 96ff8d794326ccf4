import { data, Form, Link, useLocation, useNavigation } from 'react-router';
import { AUTH_MESSAGES } from '../../identity/messages.ts';
import { confirmSchema, resendSchema } from '../../identity/schemas.ts';
import { authLimits, confirmSignUp, identityProvider } from '../../identity/service.ts';
import { safeRedirect } from '../auth.server.ts';
import { formError } from '../auth-actions.server.ts';
import { AuthCard } from '../components/auth/AuthCard.tsx';
import { CodeField } from '../components/auth/CodeField.tsx';
import { getApp } from '../context.ts';
import { redirectWithToast } from '../toast.server.ts';
import '../styles/auth.css';
import type { Route } from './+types/confirm-email';

export const meta: Route.MetaFunction = () => [
  { title: 'Confirm your email — Penstand' },
  { name: 'robots', content: 'noindex' },
];

export function loader({ request }: Route.LoaderArgs) {
  return { username: new URL(request.url).searchParams.get('username')?.slice(0, 64) ?? '' };
}

/** /confirm-email and /amplify-confirm-email: the 6-digit code from the mail, or a new one. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, state } = getApp(context);
  const form = await request.formData();
  const amplify = new URL(request.url).pathname.startsWith('/amplify');
  try {
    if (form.get('intent') === 'resend') {
      const parsed = resendSchema.safeParse({ username: form.get('username') });
      if (!parsed.success)
        return data({ error: parsed.error.issues[0].message, sent: false }, { status: 400 });
      await authLimits(services.db).codes.consume(`${state.clientIp}|${parsed.data.username.toLowerCase()}`);
      await identityProvider(services).resendCode(parsed.data);
      return { error: undefined, sent: true };
    }
    const parsed = confirmSchema.safeParse({ username: form.get('username'), code: form.get('code') });
    if (!parsed.success) return data({ error: parsed.error.issues[0].message, sent: false }, { status: 400 });
    await confirmSignUp(services, state, parsed.data);
  } catch (error) {
    return formError(error, AUTH_MESSAGES.confirmFailed);
  }
  const back = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '');
  const login = amplify ? '/amplify-login' : '/login';
  return redirectWithToast(back ? `${login}?redirectTo=${encodeURIComponent(back)}` : login, {
    title: 'Email confirmed',
    description: 'You can sign in now.',
    type: 'success',
  });
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const result = actionData as { error?: string; sent?: boolean } | undefined;
  return (
    <AuthCard
      title="Confirm your email"
      footer={<Link to={pathname.startsWith('/amplify') ? '/amplify-login' : '/login'}>Sign in</Link>}
    >
      <p className="muted">We sent a 6-digit code to your email address. It is valid for 24 hours.</p>
      <Form method="post" className="auth-form">
        <div className="field">
          <label htmlFor="confirm-username">Username</label>
          <input
            id="confirm-username"
            name="username"
            defaultValue={loaderData.username}
            autoComplete="username"
            required
            maxLength={64}
          />
        </div>
        <CodeField id="confirm-code" />
        {result?.error && (
          <p className="form-status error" role="alert">
            {result.error}
          </p>
        )}
        {result?.sent && (
          <p className="form-status success" role="status">
            A new code is on its way.
          </p>
        )}
        <button type="submit" className="button auth-submit" disabled={navigation.state !== 'idle'}>
          {navigation.state !== 'idle' ? 'Confirming...' : 'Confirm email'}
        </button>
        <button type="submit" name="intent" value="resend" className="button button-secondary" formNoValidate>
          Resend code
        </button>
      </Form>
    </AuthCard>
  );
}
