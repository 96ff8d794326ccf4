import { data, redirect } from 'react-router';
import { membershipOf } from '../../identity/membership.ts';
import { AppError } from '../../kernel/errors.ts';
import { subscribeSchema } from '../../members/member-schema.ts';
import { MEMBER_MESSAGES } from '../../members/messages.ts';
import { startSubscription } from '../../members/subscriptions.ts';
import { httpStatusOf } from '../../server/error-status.ts';
import { listTiers } from '../../shop/tiers.ts';
import { TierForms } from '../components/TierForms.tsx';
import { getApp } from '../context.ts';
import { useCurrency } from '../currency.ts';
import type { Route } from './+types/membership';

export const meta: Route.MetaFunction = () => [{ title: 'Membership — Penstand' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, state } = getApp(context);
  const user = state.session.user;
  return {
    tiers: await listTiers(services.db, { activeOnly: true }),
    stripe: Boolean(services.stripe),
    membership: user ? await membershipOf(services.db, user.id) : null,
    welcome: new URL(request.url).searchParams.get('membership') === 'welcome',
  };
}

/** A tier's price form (here, or under a paywall): signed in, to Stripe Checkout; else to sign-in first. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, state } = getApp(context);
  const form = await request.formData();
  const parsed = subscribeSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ message: parsed.error.issues[0].message }, { status: 400 });
  const user = state.session.user;
  if (!user) throw redirect(`/login?redirectTo=${encodeURIComponent(parsed.data.returnTo ?? '/membership')}`);
  try {
    return redirect(await startSubscription(services, user, parsed.data, state.session.id));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return data({ message: error.message }, { status: httpStatusOf(error) });
  }
}

export default function Membership({ loaderData, actionData }: Route.ComponentProps) {
  const currency = useCurrency();
  const { tiers, stripe, membership, welcome } = loaderData;
  return (
    <section className="container narrow-page">
      <h1>Membership</h1>
      {welcome && <p role="status">{MEMBER_MESSAGES.welcome}</p>}
      {actionData && <p role="alert">{actionData.message}</p>}
      {membership && membership.status !== 'free' ? (
        <p>
          You are a {membership.status === 'comped' ? 'complimentary' : 'paying'} member. Manage your
          membership from <a href="/account">your account</a>.
        </p>
      ) : (
        <TierForms tiers={tiers} currency={currency} stripe={stripe} returnTo="/membership" />
      )}
    </section>
  );
}
