import { Forbidden, Unauthorized } from '../kernel/errors.ts';
import type { RequestContext, SessionUser } from '../kernel/request.ts';
import { TWO_FACTOR_MESSAGES } from './two-factor.ts';

export const ADMIN_REQUIRED_MESSAGE =
  'Authentication required. Please make sure you are logged in as an admin.';

export type Permission = 'public' | 'user' | 'admin';

/**
 * 401 when signed out, 403 when signed in without the admin role, or as an admin who has yet to
 * set up two-factor while 'Require two-factor for admins' is on.
 */
export function requireAdmin(state: RequestContext, message = ADMIN_REQUIRED_MESSAGE): SessionUser {
  const user = state.session.user;
  if (!user) throw new Unauthorized(message);
  if (user.role !== 'admin') throw new Forbidden('You do not have permission to do that.');
  if (state.session.twoFactorSetupDue) throw new Forbidden(TWO_FACTOR_MESSAGES.adminSetupRequired);
  return user;
}

export function requireUser(state: RequestContext): SessionUser {
  const user = state.session.user;
  if (!user) throw new Unauthorized('Please sign in first.');
  return user;
}
