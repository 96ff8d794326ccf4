import { Link, redirect, useFetcher } from 'react-router';
import { safeRedirect } from '../auth.server.ts';
import { type SignInStep, signInAction } from '../auth-actions.server.ts';
import { AuthCard } from '../components/auth/AuthCard.tsx';
import { PasskeySignIn } from '../components/auth/PasskeySignIn.tsx';
import { PasswordField } from '../components/auth/PasswordField.tsx';
import { TwoFactorStep } from '../components/auth/TwoFactorStep.tsx';
import { getApp } from '../context.ts';
import '../styles/auth.css';
import type { Route } from './+types/amplify-login';

export const meta: Route.MetaFunction = () => [
  { title: 'Sign in — Penstand' },
  { name: 'robots', content: 'noindex' },
];

export function loader({ context, request }: Route.LoaderArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '');
  if (getApp(context).state.session.user) throw redirect(redirectTo || '/');
  return { redirectTo };
}

export function action({ request, context }: Route.ActionArgs) {
  return signInAction(request, context, 'username');
}

/** Username sign-in; an unconfirmed account gets a link to confirm its email. */
export default function AmplifyLogin({ loaderData, actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<SignInStep>();
  // Without JavaScript the form posts normally and the answer comes back as actionData.
  const answer = fetcher.data ?? (actionData as SignInStep | undefined);
  const error = answer?.error;
  const pending = fetcher.state !== 'idle';
  const username = answer?.identifier ?? '';
  if (answer?.challengeId)
    return (
      <AuthCard title="Sign in">
        <TwoFactorStep
          Form={fetcher.Form}
          challengeId={answer.challengeId}
          redirectTo={loaderData.redirectTo || undefined}
          idPrefix="amplify"
          error={error}
          pending={pending}
        />
      </AuthCard>
    );
  return (
    <AuthCard title="Sign in" footer={<Link to="/amplify-signup">Create an account</Link>}>
      <fetcher.Form method="post" className="auth-form" noValidate>
        {loaderData.redirectTo && <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />}
        <div className="field">
          <label htmlFor="amplify-username">Username</label>
          <input
            id="amplify-username"
            name="username"
            autoComplete="username"
            required
            maxLength={64}
            defaultValue={username}
          />
        </div>
        <PasswordField
          id="amplify-password"
          name="password"
          label="Password"
          autoComplete="current-password"
        />
        {error && (
          <p className="form-status error" role="alert">
            {error}
            {error.toLowerCase().includes('confirm your email') && (
              <>
                {' '}
                <Link to={`/amplify-confirm-email?username=${encodeURIComponent(username)}`}>
                  Confirm your email
                </Link>
              </>
            )}
          </p>
        )}
        <button type="submit" className="button auth-submit" disabled={pending}>
          {pending ? 'Signing in...' : 'Sign in'}
        </button>
        <PasskeySignIn
          submit={fetcher.submit}
          action="/amplify-login"
          redirectTo={loaderData.redirectTo || undefined}
          pending={pending}
        />
        <p className="auth-links">
          <Link to="/amplify-forgot-password">Forgot your password?</Link>
        </p>
      </fetcher.Form>
    </AuthCard>
  );
}
