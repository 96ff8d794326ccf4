import { data, Form, redirect, useNavigation } from 'react-router';
import { getProfile } from '../../identity/account.ts';
import { feedTokenOf, issueFeedToken, membershipOf } from '../../identity/membership.ts';
import { ACCOUNT_MESSAGES, TWO_FACTOR_AUDIT } from '../../identity/messages.ts';
import { listPasskeys } from '../../identity/passkeys.ts';
import {
  authLimits,
  finishTwoFactorSetup,
  startTwoFactorSetup,
  turnOffTwoFactor,
  twoFactorChanged,
} from '../../identity/service.ts';
import { endOtherSessions, endUserSession, listUserSessions } from '../../identity/sessions.ts';
import {
  pendingTwoFactorSetup,
  TWO_FACTOR_MESSAGES,
  type TwoFactorSetup,
  twoFactorStatus,
} from '../../identity/two-factor.ts';
import { describeUserAgent } from '../../identity/user-agent.ts';
import { AppError } from '../../kernel/errors.ts';
import { UPLOAD_MESSAGES } from '../../media/messages.ts';
import { billingPortalUrl } from '../../members/subscriptions.ts';
import { listAccountOrders } from '../../orders/lists.ts';
import { getTier } from '../../shop/tiers.ts';
import { accountAction, isAccountIntent } from '../account-actions.server.ts';
import { formatDateTime } from '../admin/format.ts';
import { DeleteAccountCard } from '../components/account/DeleteAccountCard.tsx';
import { MembershipCard } from '../components/account/MembershipCard.tsx';
import { OrdersCard } from '../components/account/OrdersCard.tsx';
import { PasswordCard } from '../components/account/PasswordCard.tsx';
import { ProfileCard } from '../components/account/ProfileCard.tsx';
import { PasskeysCard } from '../components/auth/PasskeysCard.tsx';
import { Notice } from '../components/shop/Notice.tsx';
import { type AppContext, getApp } from '../context.ts';
import { passkeyAccountAction } from '../passkey-actions.server.ts';
import '../styles/shop.css';
import '../styles/account.css';
import '../styles/auth.css';
import { httpStatusOf, isRefusal } from '../../server/error-status.ts';
import type { Route } from './+types/account';

export const meta: Route.MetaFunction = () => [
  { title: 'Your account — Penstand' },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

function signedInUser(app: AppContext) {
  const user = app.state.session.user;
  if (!user) throw redirect('/login?redirectTo=%2Faccount');
  return user;
}

/** What the avatar upload (POST /api/users/avatar, without JavaScript) came back with. */
function avatarOutcome(url: URL): { ok: boolean; message: string } | null {
  const outcome = url.searchParams.get('avatar');
  if (outcome === 'saved') return { ok: true, message: ACCOUNT_MESSAGES.avatarSaved };
  if (outcome && Object.hasOwn(UPLOAD_MESSAGES, outcome) && outcome !== 'success' && outcome !== 'failed')
    return { ok: false, message: UPLOAD_MESSAGES[outcome as 'tooLarge' | 'notImage' | 'noFile'] };
  return null;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getApp(context);
  const user = signedInUser(app);
  const { db } = app.services;
  const [sessions, twoFactor, passkeys, profile, orders, membership] = await Promise.all([
    listUserSessions(db, user.id, app.state.session.id),
    twoFactorStatus(db, user.id),
    listPasskeys(db, user.id),
    getProfile(app.services, user.id),
    listAccountOrders(db, user.id),
    membershipOf(db, user.id),
  ]);
  const feedToken = membership.status === 'free' ? null : await feedTokenOf(db, user.id);
  const tier = membership.tierId === null ? null : await getTier(db, membership.tierId);
  return {
    profile,
    orders,
    membership,
    tierName: tier?.name ?? null,
    privateFeed: feedToken && `${app.services.publicUrl}/podcast/members/${feedToken}`,
    avatar: avatarOutcome(new URL(request.url)),
    // Local accounts only: with Cognito the pool signs its users in.
    passkeys: twoFactor.local && !app.services.config.cognito ? passkeys : null,
    email: user.email,
    sessions: sessions.map((s) => ({ ...s, device: describeUserAgent(s.userAgent) })),
    twoFactor: { available: twoFactor.local, enabled: twoFactor.enabled },
    isAdmin: user.role === 'admin',
    // 'Require two-factor for admins' sent this admin here from the admin.
    adminNotice: app.state.session.twoFactorSetupDue ? TWO_FACTOR_MESSAGES.adminSetupRequired : null,
  };
}

type TwoFactorAnswer =
  | { ok: true; message: string; setup?: TwoFactorSetup; recoveryCodes?: string[] }
  | { ok: false; message: string; setup?: TwoFactorSetup };

/** Two-factor on the Account page: set up (a QR code to scan), confirm with a first code, turn off. */
async function twoFactorAction(app: AppContext, intent: string, form: FormData): Promise<TwoFactorAnswer> {
  const user = signedInUser(app);
  const { db } = app.services;
  const code = String(form.get('code') ?? '').slice(0, 20);
  app.state.audit = { what: TWO_FACTOR_AUDIT[intent] };
  try {
    if (intent === '2fa-setup')
      return {
        ok: true,
        message: 'Scan the code, then enter the first 6 digits it shows.',
        setup: await startTwoFactorSetup(app.services, app.state, user),
      };
    // Guessing codes here counts against the same limit as the API's 2fa-enable and 2fa-disable.
    await authLimits(db).twoFactorCodes.consume(`user|${user.id}`);
    if (intent === '2fa-enable') {
      const recoveryCodes = await finishTwoFactorSetup(app.services, app.state, user, code);
      await twoFactorChanged(app.services, app.state, user, true);
      return { ok: true, message: 'Two-factor sign-in is on.', recoveryCodes };
    }
    await turnOffTwoFactor(app.services, user, code);
    await twoFactorChanged(app.services, app.state, user, false);
    return { ok: true, message: 'Two-factor sign-in is off.' };
  } catch (error) {
    if (!isRefusal(error)) throw error;
    app.state.audit.refused = error.message;
    // A wrong first code keeps the setup on screen (the pending secret stands).
    const setup = intent === '2fa-enable' ? await pendingTwoFactorSetup(db, user) : null;
    return { ok: false, message: error.message, ...(setup ? { setup } : {}) };
  }
}

export async function action({ context, request }: Route.ActionArgs) {
  const app = getApp(context);
  const user = signedInUser(app);
  const form = await request.formData();
  const { db } = app.services;
  const intent = String(form.get('intent') ?? '');
  if (isAccountIntent(intent)) return accountAction(app, user, intent, form);
  if (intent === 'private-feed') {
    await issueFeedToken(db, user.id);
    return { ok: true, message: 'Your private podcast feed has a new address; the old one no longer works.' };
  }
  if (intent === 'billing-portal') {
    try {
      return redirect(await billingPortalUrl(app.services, user));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return data({ ok: false, message: error.message }, { status: httpStatusOf(error) });
    }
  }
  if (intent === '2fa-setup' || intent === '2fa-enable' || intent === '2fa-disable')
    return twoFactorAction(app, intent, form);
  if (intent === 'passkey-register' || intent === 'passkey-delete')
    return passkeyAccountAction(app, user, intent, form);
  if (form.get('intent') === 'end-others') {
    const ended = await endOtherSessions(db, user.id, app.state.session.id);
    return { ok: true, message: `Signed out of ${ended} other ${ended === 1 ? 'session' : 'sessions'}.` };
  }
  if (form.get('intent') === 'end-session') {
    const ended = await endUserSession(db, user.id, String(form.get('handle') ?? '').slice(0, 40));
    return ended
      ? { ok: true, message: 'That session is signed out.' }
      : { ok: false, message: 'That session had already ended.' };
  }
  return data({ ok: false, message: 'Unknown action' }, { status: 400 });
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const others = loaderData.sessions.filter((s) => !s.current);
  const notice = actionData ?? loaderData.avatar;
  return (
    <div className="container narrow-page order-page account-page">
      <h1>Your account</h1>
      <p className="muted">Signed in as {loaderData.email}</p>
      <nav aria-label="Account" className="account-nav">
        <a href="#profile">Profile</a>
        <a href="#password">Password</a>
        <a href="#membership">Membership</a>
        <a href="#orders">My orders</a>
        <a href="#security">Security</a>
        <a href="#delete">Delete my account</a>
      </nav>
      {notice && (
        <Notice
          tone={notice.ok ? 'success' : 'error'}
          title={notice.ok ? 'Done' : 'Error'}
          description={notice.message}
        />
      )}
      {loaderData.adminNotice && (
        <Notice tone="info" title="Set up two-factor" description={loaderData.adminNotice} />
      )}
      <ProfileCard profile={loaderData.profile} busy={busy} />
      <PasswordCard busy={busy} />
      <MembershipCard
        membership={loaderData.membership}
        tierName={loaderData.tierName}
        privateFeed={loaderData.privateFeed}
      />
      <OrdersCard orders={loaderData.orders} />
      <h2 id="security" className="account-section-heading">
        Security
      </h2>
      {loaderData.twoFactor.available && (
        <TwoFactorCard
          isAdmin={loaderData.isAdmin}
          enabled={loaderData.twoFactor.enabled}
          answer={(actionData as TwoFactorAnswer | undefined) ?? null}
          busy={busy}
        />
      )}
      {loaderData.passkeys && <PasskeysCard passkeys={loaderData.passkeys} busy={busy} />}
      <section className="card" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <ul className="session-list">
          {loaderData.sessions.map((s) => (
            <li key={s.handle} className="session-item">
              <div>
                <strong>{s.device}</strong>
                {s.current ? <span className="badge"> This device</span> : null}
                <p className="muted">
                  {s.network ? <>From network {s.network} · </> : null}Signed in {formatDateTime(s.createdAt)}{' '}
                  · last active around {formatDateTime(s.lastSeenAt)}
                </p>
              </div>
              {!s.current && (
                <Form method="post">
                  <input type="hidden" name="intent" value="end-session" />
                  <input type="hidden" name="handle" value={s.handle} />
                  <button type="submit" className="button button-small button-secondary" disabled={busy}>
                    Sign out<span className="visually-hidden"> {s.device}</span>
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        {others.length > 0 && (
          <Form method="post">
            <input type="hidden" name="intent" value="end-others" />
            <button type="submit" className="button button-danger" disabled={busy}>
              Sign out everywhere else
            </button>
          </Form>
        )}
      </section>
      <DeleteAccountCard email={loaderData.email} isAdmin={loaderData.isAdmin} busy={busy} />
    </div>
  );
}

function TwoFactorCard({
  isAdmin,
  enabled,
  answer,
  busy,
}: {
  isAdmin: boolean;
  enabled: boolean;
  answer: TwoFactorAnswer | null;
  busy: boolean;
}) {
  const setup = answer?.setup;
  return (
    <section className="card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor sign-in</h2>
      {answer?.ok && answer.recoveryCodes?.length ? (
        <div>
          <p>
            Keep these recovery codes somewhere safe: each one signs you in once if you lose your phone. They
            are shown only now.
          </p>
          <ul className="recovery-codes" data-testid="recovery-codes">
            {answer.recoveryCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          {isAdmin && <a href="/admin">Continue to the admin</a>}
        </div>
      ) : null}
      {enabled ? (
        <Form method="post">
          <p>On: signing in asks for a code from your authenticator app after the password.</p>
          <input type="hidden" name="intent" value="2fa-disable" />
          <div className="field">
            <label htmlFor="two-factor-off-code">Current code (to turn it off)</label>
            <input
              id="two-factor-off-code"
              name="code"
              autoComplete="one-time-code"
              maxLength={20}
              required
            />
          </div>
          <button type="submit" className="button button-secondary" disabled={busy}>
            Turn off two-factor
          </button>
        </Form>
      ) : setup ? (
        <Form method="post">
          <p>Scan this code with an authenticator app (or type the key), then enter the 6 digits it shows.</p>
          <img
            className="qr-code"
            src={`data:image/svg+xml;base64,${btoa(setup.qrSvg)}`}
            alt="QR code of the authenticator key"
            width={192}
            height={192}
          />
          <p>
            Key: <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <input type="hidden" name="intent" value="2fa-enable" />
          <div className="field">
            <label htmlFor="two-factor-code">Code from the app</label>
            <input
              id="two-factor-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={20}
              required
            />
          </div>
          <button type="submit" className="button" disabled={busy}>
            Turn on two-factor
          </button>
        </Form>
      ) : (
        <Form method="post">
          <p>Off. With it on, a stolen password is not enough to sign in.</p>
          <input type="hidden" name="intent" value="2fa-setup" />
          <button type="submit" className="button" disabled={busy}>
            Set up two-factor
          </button>
        </Form>
      )}
    </section>
  );
}
