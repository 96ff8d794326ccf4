import { createHash } from 'node:crypto';
import { useState } from 'react';
import { Form, Link } from 'react-router';
import { AuthCard } from '../components/auth/AuthCard.tsx';
import { getApp } from '../context.ts';
import '../styles/auth.css';
import type { Route } from './+types/amplify-demo';

export const meta: Route.MetaFunction = () => [
  { title: 'Session — Penstand' },
  { name: 'robots', content: 'noindex' },
];

const AUTH_ROUTES = [
  '/login',
  '/signup',
  '/confirm-email',
  '/forgot-password',
  '/amplify-login',
  '/amplify-signup',
  '/amplify-confirm-email',
  '/amplify-forgot-password',
];

/**
 * The signed-in user's own session: id, username, email and a fingerprint of the access token.
 * Never the token itself: loader data is readable by every script of the page.
 */
export function loader({ context }: Route.LoaderArgs) {
  const { session } = getApp(context).state;
  const user = session.user;
  return {
    user: user ? { userId: String(user.id), username: user.username, email: user.email } : null,
    // Of Cognito's access token, or our session id: enough to tell two sessions apart.
    tokenFingerprint:
      user && session.id
        ? `sha256:${createHash('sha256')
            .update(session.data.cognito?.accessToken ?? session.id)
            .digest('hex')
            .slice(0, 16)}`
        : null,
  };
}

export default function AmplifyDemo({ loaderData }: Route.ComponentProps) {
  const [showToken, setShowToken] = useState(false);
  const { user } = loaderData;
  return (
    <AuthCard title="Authentication demo">
      {user ? (
        <>
          <p>
            <span className="badge">Authenticated</span>
          </p>
          <dl className="demo-list">
            <dt>userId</dt>
            <dd>{user.userId}</dd>
            <dt>username</dt>
            <dd>{user.username ?? '—'}</dd>
            {user.email && (
              <>
                <dt>email</dt>
                <dd>{user.email}</dd>
              </>
            )}
          </dl>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => setShowToken((v) => !v)}
            aria-expanded={showToken}
          >
            {showToken ? 'Hide access token' : 'Show access token'}
          </button>
          {showToken && <code className="token-preview">{loaderData.tokenFingerprint}</code>}
          <Form method="post" action="/logout">
            <button type="submit" className="button">
              Sign out
            </button>
          </Form>
        </>
      ) : (
        <p>
          You are signed out. <Link to="/amplify-login">Sign in</Link> or{' '}
          <Link to="/amplify-signup">create an account</Link>.
        </p>
      )}
      <h2>All sign-in pages</h2>
      <ul>
        {AUTH_ROUTES.map((path) => (
          <li key={path}>
            <Link to={path}>{path}</Link>
          </li>
        ))}
      </ul>
    </AuthCard>
  );
}
