import { redirect } from 'react-router';
import { safeRedirect } from '../auth.server.ts';
import { type SignInStep, signInAction } from '../auth-actions.server.ts';
import { AuthCard } from '../components/auth/AuthCard.tsx';
import { SignInForm } from '../components/auth/SignInForm.tsx';
import { getApp } from '../context.ts';
import '../styles/auth.css';
import type { Route } from './+types/login';

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
  return signInAction(request, context, 'email');
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AuthCard title="Welcome Back" footer={<a href="/signup">Create an account</a>}>
      <SignInForm
        by="email"
        idPrefix="login"
        redirectTo={loaderData.redirectTo || undefined}
        forgotHref="/forgot-password"
        serverError={(actionData as SignInStep | undefined)?.error}
        serverChallenge={(actionData as SignInStep | undefined)?.challengeId}
      />
    </AuthCard>
  );
}
