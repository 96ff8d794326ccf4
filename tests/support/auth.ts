import { randomBytes } from 'node:crypto';
import { hashPassword } from '../../src/identity/passwords.ts';
import { presentUser } from '../../src/identity/provider.ts';
import { createSession } from '../../src/identity/sessions.ts';
import type { SessionUser } from '../../src/kernel/request.ts';
import type { TestApp } from './app.ts';

export type TestUser = SessionUser & { password: string };

/** Inserts a confirmed user straight into the database. */
export async function createUser(
  app: TestApp,
  opts: {
    role?: 'user' | 'admin';
    email?: string;
    username?: string;
    password?: string;
    firstName?: string;
    lastName?: string;
  } = {},
): Promise<TestUser> {
  const tag = randomBytes(4).toString('hex');
  const password = opts.password ?? 'Str0ng!pass';
  const [row] = await app.services
    .db('users')
    .insert({
      email: opts.email ?? `user-${tag}@example.com`,
      username: opts.username ?? `user_${tag}`,
      password_hash: await hashPassword(password),
      role: opts.role ?? 'user',
      email_verified: true,
      first_name: opts.firstName ?? 'Test',
      last_name: opts.lastName ?? 'User',
    })
    .returning('*');
  return { ...presentUser(row), password };
}

/**
 * A signed-in session for a new user, without going through a sign-in screen: for tests of
 * other features. Returns the Cookie header value and the session id (usable as a Bearer token).
 */
export async function signedInSession(
  app: TestApp,
  opts: Parameters<typeof createUser>[1] = {},
): Promise<{ user: TestUser; sid: string; cookie: string; headers: Record<string, string> }> {
  const user = await createUser(app, opts);
  const sid = await createSession(app.services.db, user.id);
  const cookie = `sid=${sid}`;
  // Same-origin headers, as a browser sends them with fetch from our own pages.
  return { user, sid, cookie, headers: { cookie, origin: app.url } };
}

/** Adds the session cookie to a Playwright browser context. */
export async function addSessionCookie(
  context: { addCookies: (cookies: { name: string; value: string; url: string }[]) => Promise<void> },
  appUrl: string,
  sid: string,
): Promise<void> {
  await context.addCookies([{ name: 'sid', value: sid, url: appUrl }]);
}
