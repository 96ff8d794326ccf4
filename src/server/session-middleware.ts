import type { Context, Middleware } from 'koa';
import { addressNetwork } from '../identity/network.ts';
import {
  createSession,
  isClientChosenSessionId,
  isWellFormedSessionId,
  loadSession,
  newSessionId,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  slideSessionExpiry,
} from '../identity/sessions.ts';
import { adminTwoFactorDue } from '../identity/two-factor.ts';
import type { ProviderSession, RequestSession } from '../kernel/request.ts';
import type { AppServices } from './services.ts';

export function setSessionCookie(ctx: Context, sid: string, secure: boolean): void {
  ctx.cookies.set(SESSION_COOKIE, sid, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: SESSION_TTL_MS,
    overwrite: true,
  });
}

/**
 * Finds the session of a request: Authorization: Bearer (API clients), the sid cookie
 * (browsers), or X-Session-Id (guest API clients). Sessions are created lazily.
 */
export function sessionMiddleware(services: AppServices): Middleware {
  const { db, config } = services;
  return async (ctx, next) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
    const cookie = ctx.cookies.get(SESSION_COOKIE);
    const header = ctx.get('x-session-id');
    const [candidate, via] = bearer
      ? ([bearer, 'bearer'] as const)
      : cookie
        ? ([cookie, 'cookie'] as const)
        : header
          ? ([header, 'header'] as const)
          : ([null, null] as const);
    const sid = (via === 'header' ? isClientChosenSessionId(candidate) : isWellFormedSessionId(candidate))
      ? candidate
      : null;
    const loaded = sid ? await loadSession(db, sid) : null;
    // The header is for guests: it never names a signed-in session (Bearer does that).
    const found = via === 'header' && loaded?.user ? null : loaded;
    // A guest API client's own id for a session it has not used yet: created under it on first need.
    const chosenId = via === 'header' && sid && !loaded ? sid : undefined;
    if (found?.user)
      await slideSessionExpiry(db, found.session, config.sessionIdleMs, addressNetwork(ctx.ip));
    const secure = config.isProduction && ctx.protocol === 'https';
    let upcoming: string | undefined;
    const session: RequestSession = {
      id: found?.session.id ?? null,
      user: found?.user ?? null,
      data: (found?.session.data ?? {}) as ProviderSession,
      via: found ? via : null,
      twoFactorSetupDue: found?.user ? await adminTwoFactorDue(db, found.user) : false,
      cartCount: ctx.method === 'GET' || ctx.method === 'HEAD' ? (found?.cartCount ?? 0) : null,
      async ensure(written) {
        if (session.id) return session.id;
        session.cartCount = null;
        session.id =
          written && written === upcoming ? written : await createSession(db, null, {}, chosenId ?? upcoming);
        session.via = 'cookie';
        setSessionCookie(ctx, session.id, secure);
        return session.id;
      },
      upcomingId() {
        if (session.id || session.user || chosenId) return null;
        upcoming ??= newSessionId();
        return upcoming;
      },
      upcomingRow() {
        const sid = session.upcomingId();
        return sid ? { sid, expires: new Date(Date.now() + SESSION_TTL_MS) } : null;
      },
      async rotate(userId, data = {}) {
        const previous = session.id;
        session.cartCount = null;
        session.id = await createSession(db, userId, data, undefined, {
          userAgent: ctx.get('user-agent'),
          network: addressNetwork(ctx.ip),
        });
        session.data = data;
        if (userId !== null)
          await db('sessions')
            .where({ sid: session.id })
            .update({ expire: new Date(Date.now() + config.sessionIdleMs) });
        if (previous) await db('sessions').where({ sid: previous }).delete();
        if (session.via !== 'bearer') setSessionCookie(ctx, session.id, secure);
        const loaded = await loadSession(db, session.id);
        session.user = loaded?.user ?? null;
        session.twoFactorSetupDue = session.user ? await adminTwoFactorDue(db, session.user) : false;
        return session.id;
      },
    };
    ctx.state.session = session;
    await next();
  };
}
