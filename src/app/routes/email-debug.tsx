import { useState } from 'react';
import { data } from 'react-router';
import { AuthCard } from '../components/auth/AuthCard.tsx';
import { getApp } from '../context.ts';
import '../styles/auth.css';
import type { Route } from './+types/email-debug';

export const meta: Route.MetaFunction = () => [
  { title: 'Email debug' },
  { name: 'robots', content: 'noindex' },
];

/** A developer page; it does not exist in production. */
export function loader({ context }: Route.LoaderArgs) {
  if (getApp(context).services.config.isProduction) throw data('Not Found', { status: 404 });
  return null;
}

const CHECKS = [
  { label: 'Looks like an email address', test: (v: string) => /^[^\s@]+@[^\s@]+$/.test(v) },
  { label: 'Between 5 and 254 characters', test: (v: string) => v.length >= 5 && v.length <= 254 },
  { label: 'Contains a dot', test: (v: string) => v.includes('.') },
  { label: 'Does not end with a dot', test: (v: string) => v.length > 0 && !v.endsWith('.') },
];

export default function EmailDebug() {
  const [email, setEmail] = useState('test.user@example.com');
  return (
    <AuthCard title="Email debug">
      <p className="muted">
        Checks an address the way sign-up does. Sample values only; no real credentials.
      </p>
      <div className="field">
        <label htmlFor="debug-email">Email</label>
        <input id="debug-email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
      </div>
      <ul className="password-checklist">
        {CHECKS.map((check) => (
          <li key={check.label} className={check.test(email) ? 'rule-met' : 'rule-unmet'}>
            {check.test(email) ? '✓' : '✗'} {check.label}
          </li>
        ))}
      </ul>
      <p>
        To test a sign-up with username, password and the email and preferred_username attributes, use{' '}
        <a href="/amplify-signup">the sign-up page</a>.
      </p>
    </AuthCard>
  );
}
