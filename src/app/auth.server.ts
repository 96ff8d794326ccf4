import { data, type RouterContextProvider, redirect } from 'react-router';
import type { SessionUser } from '../identity/sessions.ts';
import { getApp } from './context.ts';

/** Only paths on this site: anything else (//evil.com, https://…, javascript:) falls back to the default. */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  const value = typeof target === 'string' ? target.trim() : '';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || /[\r\n\t]/.test(value))
    return fallback;
  return value;
}

/**
 * For admin pages: a signed-out visitor goes to /login?redirectTo=<this page>, a signed-in
 * non-admin gets a 403 page. Returns the admin otherwise.
 */
export function requireAdminPage(context: Readonly<RouterContextProvider>, request: Request): SessionUser {
  const user = getApp(context).state.session.user;
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (user.role !== 'admin') throw data('You need an admin account to see this page.', { status: 403 });
  return user;
}
