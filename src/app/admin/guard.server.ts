import { data, type RouterContextProvider, redirect } from 'react-router';
import type { SessionUser } from '../../kernel/request.ts';
import { getApp } from '../context.ts';

/**
 * Admin pages: signed-out visitors go to sign in and come back; signed-in non-admins get a 403;
 * an admin who must set up two-factor first ('Require two-factor for admins') goes to the
 * Account page's setup. Every admin loader and action calls this on the server.
 */
export function requireAdminUser(context: Readonly<RouterContextProvider>, request: Request): SessionUser {
  const user = getApp(context).state.session.user;
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (user.role !== 'admin') throw data('You need an administrator account to open the admin area.', 403);
  if (getApp(context).state.session.twoFactorSetupDue) throw redirect('/account');
  return user;
}
