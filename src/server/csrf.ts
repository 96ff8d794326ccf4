import type { Middleware } from 'koa';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF defence for cookie-authenticated API calls: an unsafe request must come from our own
 * origin (Origin, or Referer when Origin is absent; Sec-Fetch-Site when browsers send it).
 * Bearer-token requests carry no ambient credentials and are exempt. React Router checks
 * the Origin of form actions itself.
 */
export function csrfProtection(): Middleware {
  return async (ctx, next) => {
    if (SAFE.has(ctx.method) || /^Bearer\s/i.test(ctx.get('authorization'))) return next();
    const fetchSite = ctx.get('sec-fetch-site');
    const origin = ctx.get('origin') || originOf(ctx.get('referer'));
    const ownOrigin = `${ctx.protocol}://${ctx.host}`;
    const hasCookies = Boolean(ctx.get('cookie'));
    const crossSite =
      fetchSite === 'cross-site' || fetchSite === 'same-site' || (origin !== '' && origin !== ownOrigin);
    if (hasCookies && crossSite) {
      ctx.status = 403;
      ctx.body = { message: 'Cross-site request refused.' };
      return;
    }
    await next();
  };
}

function originOf(referer: string): string {
  try {
    return referer ? new URL(referer).origin : '';
  } catch {
    return 'invalid';
  }
}
