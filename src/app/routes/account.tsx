import { Form, redirect, useNavigation } from 'react-router';
import { endOtherSessions, endUserSession, listUserSessions } from '../../identity/sessions.ts';
import { describeUserAgent } from '../../identity/user-agent.ts';
import { formatDateTime } from '../admin/format.ts';
import { Notice } from '../components/shop/Notice.tsx';
import { type AppContext, getApp } from '../context.ts';
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

export async function loader({ context }: Route.LoaderArgs) {
  const app = getApp(context);
  const user = signedInUser(app);
  const sessions = await listUserSessions(app.services.db, user.id, app.state.session.id);
  return {
    email: user.email,
    sessions: sessions.map((s) => ({ ...s, device: describeUserAgent(s.userAgent) })),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const app = getApp(context);
  const user = signedInUser(app);
  const form = await request.formData();
  const { db } = app.services;
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
  return { ok: false, message: 'Unknown action' };
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const others = loaderData.sessions.filter((s) => !s.current);
  return (
    <div className="container narrow-page">
      <h1>Your account</h1>
      <p className="muted">Signed in as {loaderData.email}</p>
      {actionData && (
        <Notice
          tone={actionData.ok ? 'success' : 'error'}
          title={actionData.ok ? 'Done' : 'Error'}
          description={actionData.message}
        />
      )}
      <section className="card" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Where you are signed in</h2>
        <ul className="session-list">
          {loaderData.sessions.map((s) => (
            <li key={s.handle} className="session-item">
              <div>
                <strong>{s.device}</strong>
                {s.current ? <span className="badge"> This device</span> : null}
                <p className="muted">
                  Signed in {formatDateTime(s.createdAt)} · last active around {formatDateTime(s.lastSeenAt)}
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
    </div>
  );
}
