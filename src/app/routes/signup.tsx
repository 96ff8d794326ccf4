import { useState } from 'react';
import { data, Form, Link, redirect, useLocation, useNavigation } from 'react-router';
import { AUTH_MESSAGES, passwordMeetsRules } from '../../identity/messages.ts';
import { signUpSchema } from '../../identity/schemas.ts';
import { authLimits, identityProvider } from '../../identity/service.ts';
import { formError } from '../auth-actions.server.ts';
import { AuthCard } from '../components/auth/AuthCard.tsx';
import { PasswordChecklist } from '../components/auth/PasswordChecklist.tsx';
import { PasswordField } from '../components/auth/PasswordField.tsx';
import { getApp } from '../context.ts';
import '../styles/auth.css';
import type { Route } from './+types/signup';

export const meta: Route.MetaFunction = () => [
  { title: 'Create an account — Penstand' },
  { name: 'robots', content: 'noindex' },
];

/** /signup and /amplify-signup: username, email and password; a code by mail confirms the address. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, state } = getApp(context);
  const form = await request.formData();
  if (form.get('password') !== form.get('confirmPassword')) {
    return data({ error: AUTH_MESSAGES.passwordsDoNotMatch }, { status: 400 });
  }
  const parsed = signUpSchema.safeParse({
    username: form.get('username'),
    email: form.get('email'),
    password: form.get('password'),
  });
  if (!parsed.success) return data({ error: parsed.error.issues[0].message }, { status: 400 });
  try {
    await authLimits(services.db).signUps.consume(state.clientIp);
    await identityProvider(services).signUp(parsed.data);
  } catch (error) {
    return formError(error, AUTH_MESSAGES.signUpFailed);
  }
  const confirm = new URL(request.url).pathname.startsWith('/amplify')
    ? '/amplify-confirm-email'
    : '/confirm-email';
  return redirect(`${confirm}?username=${encodeURIComponent(parsed.data.username)}`);
}

export default function SignUp({ actionData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const amplify = pathname.startsWith('/amplify');
  const valid = passwordMeetsRules(password) && password === confirmation;
  return (
    <AuthCard
      title="Create an account"
      footer={<Link to={amplify ? '/amplify-login' : '/login'}>Already have an account? Sign in</Link>}
    >
      <Form method="post" className="auth-form">
        <div className="field">
          <label htmlFor="signup-username">Username</label>
          <input
            id="signup-username"
            name="username"
            autoComplete="username"
            required
            maxLength={64}
            pattern="[A-Za-z0-9_\-]+"
          />
        </div>
        <div className="field">
          <label htmlFor="signup-email">Email</label>
          <input id="signup-email" name="email" type="email" autoComplete="email" required maxLength={254} />
        </div>
        <PasswordField
          id="signup-password"
          name="password"
          label="Password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          describedBy="signup-rules"
        />
        <PasswordField
          id="signup-confirm"
          name="confirmPassword"
          label="Confirm password"
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
        />
        <PasswordChecklist id="signup-rules" password={password} confirmation={confirmation} />
        {actionData?.error && (
          <p className="form-status error" role="alert">
            {actionData.error}
          </p>
        )}
        <button
          type="submit"
          className="button auth-submit"
          disabled={navigation.state !== 'idle'}
          aria-disabled={!valid}
        >
          {navigation.state !== 'idle' ? 'Creating account...' : 'Create account'}
        </button>
      </Form>
    </AuthCard>
  );
}
