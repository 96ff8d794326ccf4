import { HttpError } from '../server/middleware.ts';
import type { RequestState } from '../server/request-state.ts';
import type { SessionUser } from './sessions.ts';

export const ADMIN_REQUIRED_MESSAGE =
  'Authentication required. Please make sure you are logged in as an admin.';

export type Permission = 'public' | 'user' | 'admin';

/** 401 when signed out, 403 when signed in without the admin role. */
export function requireAdmin(state: RequestState, message = ADMIN_REQUIRED_MESSAGE): SessionUser {
  const user = state.session.user;
  if (!user) throw new HttpError(401, message);
  if (user.role !== 'admin') throw new HttpError(403, 'You do not have permission to do that.');
  return user;
}

export function requireUser(state: RequestState): SessionUser {
  const user = state.session.user;
  if (!user) throw new HttpError(401, 'Please sign in first.');
  return user;
}
