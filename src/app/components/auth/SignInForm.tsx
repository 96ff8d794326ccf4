import { Link, useFetcher } from 'react-router';
import { PasswordField } from './PasswordField.tsx';

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
}: {
  by: 'email' | 'username';
  idPrefix: string;
  redirectTo?: string;
  forgotHref: string;
  /** The error of a form posted without JavaScript. */
  serverError?: string;
}) {
  const fetcher = useFetcher<{ error?: string }>();
  const pending = fetcher.state !== 'idle';
  const error = fetcher.data?.error ?? serverError;
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
      <p className="auth-links">
        <Link to={forgotHref}>Forgot your password?</Link>
      </p>
    </fetcher.Form>
  );
}
