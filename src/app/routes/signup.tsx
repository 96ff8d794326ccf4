import { useRef, useState } from 'react';
import { data, Form, Link, redirect, useLocation, useNavigation } from 'react-router';
import { AUTH_MESSAGES, passwordMeetsRules } from '../../identity/messages.ts';
import { signUpSchema } from '../../identity/schemas.ts';
import { authLimits, identityProvider } from '../../identity/service.ts';
import { safeRedirect } from '../auth.server.ts';
import { formError } from '../auth-actions.server.ts';
import { AuthCard } from '../components/auth/AuthCard.tsx';
import { PasswordChecklist } from '../components/auth/PasswordChecklist.tsx';
import { PasswordField } from '../components/auth/PasswordField.tsx';
import { useFocusFirstError } from '../components/FormErrors.tsx';
import { getApp } from '../context.ts';
import { useHydrated } from '../hydrated.ts';
import '../styles/auth.css';
import type { Route } from './+types/signup';

export const meta: Route.MetaFunction = () => [
  { title: 'Create an account — Penstand' },
  { name: 'robots', content: 'noindex' },
];

/** The field each of the identity provider's refusals is about. */
const SIGN_UP_ERROR_FIELDS = new Map<string, string>([
  [AUTH_MESSAGES.usernameTaken, 'username'],
  [AUTH_MESSAGES.invalidUsername, 'username'],
  [AUTH_MESSAGES.emailTaken, 'email'],
  [AUTH_MESSAGES.invalidEmail, 'email'],
  [AUTH_MESSAGES.weakPassword, 'password'],
]);

/** /signup and /amplify-signup: username, email and password; a code by mail confirms the address. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, state } = getApp(context);
  const form = await request.formData();
  if (form.get('password') !== form.get('confirmPassword')) {
    return data({ error: AUTH_MESSAGES.passwordsDoNotMatch, field: 'confirmPassword' }, { status: 400 });
  }
  const parsed = signUpSchema.safeParse({
    username: form.get('username'),
    email: form.get('email'),
    password: form.get('password'),
  });
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    return data({ error: issue.message, field: String(issue.path[0]) }, { status: 400 });
  }
  try {
    await authLimits(services.db).signUps.consume(state.clientIp);
    await identityProvider(services).signUp(parsed.data);
  } catch (error) {
    return formError(error, AUTH_MESSAGES.signUpFailed, {
      field: SIGN_UP_ERROR_FIELDS.get((error as Error).message),
    });
  }
  const confirm = new URL(request.url).pathname.startsWith('/amplify')
    ? '/amplify-confirm-email'
    : '/confirm-email';
  // Signing up from a paywall comes back to the post, through the code and the sign-in.
  const back = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '');
  const then = back ? `&redirectTo=${encodeURIComponent(back)}` : '';
  return redirect(`${confirm}?username=${encodeURIComponent(parsed.data.username)}${then}`);
}

export default function SignUp({ actionData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const amplify = pathname.startsWith('/amplify');
  const valid = passwordMeetsRules(password) && password === confirmation;
  // Without JavaScript the checklist never learns the password: the button must not read as disabled.
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, actionData);
  // The field a refusal is about is marked, and described by the refusal's message.
  const invalid = (name: string) => actionData?.field === name;
  const described = (name: string, hint?: string) =>
    [hint, invalid(name) && 'signup-status'].filter(Boolean).join(' ') || undefined;
  return (
    <AuthCard
      title="Create an account"
      footer={<Link to={amplify ? '/amplify-login' : '/login'}>Already have an account? Sign in</Link>}
    >
      <Form method="post" className="auth-form" ref={formRef}>
        <div className="field">
          <label htmlFor="signup-username">Username</label>
          <input
            id="signup-username"
            name="username"
            autoComplete="username"
            required
            maxLength={64}
            pattern="[A-Za-z0-9_\-]+"
            aria-invalid={invalid('username') || undefined}
            aria-describedby={described('username')}
          />
        </div>
        <div className="field">
          <label htmlFor="signup-email">Email</label>
          <input
            id="signup-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            aria-invalid={invalid('email') || undefined}
            aria-describedby={described('email')}
          />
        </div>
        <PasswordField
          id="signup-password"
          name="password"
          label="Password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          describedBy={described('password', 'signup-rules')}
          invalid={invalid('password')}
        />
        <PasswordField
          id="signup-confirm"
          name="confirmPassword"
          label="Confirm password"
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
          describedBy={described('confirmPassword')}
          invalid={invalid('confirmPassword')}
        />
        <PasswordChecklist id="signup-rules" password={password} confirmation={confirmation} />
        {actionData?.error && (
          <p id="signup-status" className="form-status error" role="alert">
            {actionData.error}
          </p>
        )}
        <button
          type="submit"
          className="button auth-submit"
          disabled={navigation.state !== 'idle'}
          aria-disabled={hydrated && !valid}
        >
          {navigation.state !== 'idle' ? 'Creating account...' : 'Create account'}
        </button>
      </Form>
    </AuthCard>
  );
}
