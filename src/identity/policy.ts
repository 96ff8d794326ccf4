import { HttpError } from '../server/middleware.ts';
import type { RequestState } from '../server/request-state.ts';
import type { SessionUser } from './sessions.ts';
import { TWO_FACTOR_MESSAGES } from './two-factor.ts';

export const ADMIN_REQUIRED_MESSAGE =
  'Authentication required. Please make sure you are logged in as an admin.';

export type Permission = 'public' | 'user' | 'admin';

/**
 * 401 when signed out, 403 when signed in without the admin role, or as an admin who has yet to
 * set up two-factor while 'Require two-factor for admins' is on.
 */
export function requireAdmin(state: RequestState, message = ADMIN_REQUIRED_MESSAGE): SessionUser {
  const user = state.session.user;
  if (!user) throw new HttpError(401, message);
  if (user.role !== 'admin') throw new HttpError(403, 'You do not have permission to do that.');
  if (state.session.twoFactorSetupDue) throw new HttpError(403, TWO_FACTOR_MESSAGES.adminSetupRequired);
  return user;
}

export function requireUser(state: RequestState): SessionUser {
  const user = state.session.user;
  if (!user) throw new HttpError(401, 'Please sign in first.');
  return user;
}
