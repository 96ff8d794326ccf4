import { useState } from 'react';
import { data, Form, Link, useLocation, useNavigation } from 'react-router';
import { AUTH_MESSAGES, passwordMeetsRules } from '../../identity/messages.ts';
import { forgotSchema, resetSchema } from '../../identity/schemas.ts';
import { authLimits, resetPassword, sendResetCode } from '../../identity/service.ts';
import { formError } from '../auth-actions.server.ts';
import { AuthCard } from '../components/auth/AuthCard.tsx';
import { CodeField } from '../components/auth/CodeField.tsx';
import { PasswordChecklist } from '../components/auth/PasswordChecklist.tsx';
import { PasswordField } from '../components/auth/PasswordField.tsx';
import { getApp } from '../context.ts';
import { useHydrated } from '../hydrated.ts';
import { redirectWithToast } from '../toast.server.ts';
import '../styles/auth.css';
import type { Route } from './+types/forgot-password';

export const meta: Route.MetaFunction = () => [
  { title: 'Reset password — Penstand' },
  { name: 'robots', content: 'noindex' },
];

type Step =
  | { step: 'reset'; identifier: string; error?: string; resent?: boolean }
  | { step: 'request'; error?: string };

/** /forgot-password (by email) and /amplify-forgot-password (by username): a code, then a new password. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, state } = getApp(context);
  const amplify = new URL(request.url).pathname.startsWith('/amplify');
  const by = amplify ? 'username' : 'email';
  const form = await request.formData();
  const identifier = String(form.get(by) ?? '').trim();
  const intent = form.get('intent');
  const limits = authLimits(services.db);
  try {
    if (intent === 'send' || intent === 'resend') {
      const parsed = forgotSchema.safeParse({ [by]: identifier });
      if (!parsed.success)
        return data<Step>({ step: 'request', error: parsed.error.issues[0].message }, { status: 400 });
      await limits.codes.consume(`${state.clientIp}|${identifier.toLowerCase()}`);
      await sendResetCode(services, parsed.data);
      return data<Step>({ step: 'reset', identifier, resent: intent === 'resend' });
    }
    if (form.get('password') !== form.get('confirmPassword')) {
      return data<Step>(
        { step: 'reset', identifier, error: AUTH_MESSAGES.passwordsDoNotMatch },
        { status: 400 },
      );
    }
    const parsed = resetSchema.safeParse({
      [by]: identifier,
      code: form.get('code'),
      password: form.get('password'),
    });
    if (!parsed.success)
      return data<Step>(
        { step: 'reset', identifier, error: parsed.error.issues[0].message },
        { status: 400 },
      );
    await resetPassword(services, state, parsed.data);
  } catch (error) {
    const answer = formError(
      error,
      intent === 'send' ? AUTH_MESSAGES.sendResetFailed : AUTH_MESSAGES.resetFailed,
    );
    const step: Step =
      intent === 'send'
        ? { step: 'request', error: answer.data.error }
        : { step: 'reset', identifier, error: answer.data.error };
    return data<Step>(step, answer.init ?? undefined);
  }
  return redirectWithToast(amplify ? '/amplify-login' : '/login', {
    title: AUTH_MESSAGES.resetSuccess,
    type: 'success',
  });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const amplify = pathname.startsWith('/amplify');
  const by = amplify ? 'username' : 'email';
  const state = actionData as Step | undefined;
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  // Without JavaScript the checklist never learns the password: the button must not read as disabled.
  const hydrated = useHydrated();
  const busy = navigation.state !== 'idle';
  const intent = navigation.formData?.get('intent');
  const signIn = <Link to={amplify ? '/amplify-login' : '/login'}>Back to sign in</Link>;
  if (state?.step !== 'reset') {
    return (
      <AuthCard title="Reset password" footer={signIn}>
        <p className="muted">Enter your {by} and we will mail you a 6-digit code.</p>
        <Form method="post" className="auth-form">
          <div className="field">
            <label htmlFor="forgot-identifier">{amplify ? 'Username' : 'Email'}</label>
            <input
              id="forgot-identifier"
              name={by}
              type={amplify ? 'text' : 'email'}
              autoComplete={amplify ? 'username' : 'email'}
              required
              maxLength={254}
            />
          </div>
          {state?.error && (
            <p className="form-status error" role="alert">
              {state.error}
            </p>
          )}
          <button type="submit" name="intent" value="send" className="button auth-submit" disabled={busy}>
            {busy && intent === 'send' ? 'Sending code...' : 'Send reset code'}
          </button>
        </Form>
      </AuthCard>
    );
  }
  const valid = passwordMeetsRules(password) && password === confirmation;
  return (
    <AuthCard title="Enter new password" footer={signIn}>
      <p className="muted" role="status">
        {AUTH_MESSAGES.resetCodeMaybeSent(by)}. It is valid for one hour.
      </p>
      <Form method="post" className="auth-form">
        <input type="hidden" name={by} value={state.identifier} />
        <CodeField id="reset-code" required />
        <PasswordField
          id="reset-password"
          name="password"
          label="New password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          describedBy="reset-rules"
        />
        <PasswordField
          id="reset-confirm"
          name="confirmPassword"
          label="Confirm new password"
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
        />
        <PasswordChecklist id="reset-rules" password={password} confirmation={confirmation} />
        {state.error && (
          <p className="form-status error" role="alert">
            {state.error}
          </p>
        )}
        {state.resent && (
          <p className="form-status success" role="status">
            A new code is on its way.
          </p>
        )}
        <button
          type="submit"
          name="intent"
          value="reset"
          className="button auth-submit"
          disabled={busy}
          aria-disabled={hydrated && !valid}
        >
          {busy && intent === 'reset' ? 'Resetting password...' : 'Reset password'}
        </button>
        <p className="auth-links">
          Didn't receive the code?{' '}
          <button type="submit" name="intent" value="resend" className="link-button" formNoValidate>
            Resend
          </button>
        </p>
      </Form>
    </AuthCard>
  );
}
