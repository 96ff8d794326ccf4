import { Link, useFetcher } from 'react-router';
import { PasskeySignIn } from './PasskeySignIn.tsx';
import { PasswordField } from './PasswordField.tsx';
import { TwoFactorStep } from './TwoFactorStep.tsx';

/**
 * Email (or username) and password, posted to /login or /amplify-login. Works as a plain form
 * and, inside the header modal, through a fetcher so errors show in place.
 */
export function SignInForm({
  by,
  idPrefix,
  redirectTo,
  forgotHref,
  serverError,
  serverChallenge,
}: {
  by: 'email' | 'username';
  idPrefix: string;
  redirectTo?: string;
  forgotHref: string;
  /** The error of a form posted without JavaScript. */
  serverError?: string;
  /** The second step's challenge of a form posted without JavaScript. */
  serverChallenge?: string;
}) {
  const fetcher = useFetcher<{ error?: string; challengeId?: string }>();
  const pending = fetcher.state !== 'idle';
  const error = fetcher.data?.error ?? serverError;
  const challengeId = fetcher.data ? fetcher.data.challengeId : serverChallenge;
  if (challengeId)
    return (
      <TwoFactorStep
        Form={fetcher.Form}
        action={by === 'email' ? '/login' : '/amplify-login'}
        challengeId={challengeId}
        redirectTo={redirectTo}
        idPrefix={idPrefix}
        error={error}
        pending={pending}
      />
    );
  return (
    <fetcher.Form
      method="post"
      action={by === 'email' ? '/login' : '/amplify-login'}
      className="auth-form"
      noValidate
    >
      {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
      <div className="field">
        <label htmlFor={`${idPrefix}-${by}`}>{by === 'email' ? 'Email' : 'Username'}</label>
        <input
          id={`${idPrefix}-${by}`}
          name={by}
          type={by === 'email' ? 'email' : 'text'}
          autoComplete={by === 'email' ? 'email' : 'username'}
          required
          maxLength={254}
        />
      </div>
      <PasswordField
        id={`${idPrefix}-password`}
        name="password"
        label="Password"
        autoComplete="current-password"
      />
      {error && (
        <p className="form-status error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button auth-submit" disabled={pending}>
        {pending ? 'Signing in...' : by === 'email' ? 'Sign In' : 'Sign in'}
      </button>
      <PasskeySignIn
        submit={fetcher.submit}
        action={by === 'email' ? '/login' : '/amplify-login'}
        redirectTo={redirectTo}
        pending={pending}
      />
      <p className="auth-links">
        <Link to={forgotHref}>Forgot your password?</Link>
      </p>
    </fetcher.Form>
  );
}
