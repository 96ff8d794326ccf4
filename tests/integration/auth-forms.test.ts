import { afterAll, beforeAll, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/identity/messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../support/auth.ts';
import { startSmtpServer } from '../support/smtp.ts';

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ withWorker: true, env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

function post(path: string, fields: Record<string, string>) {
  return fetch(`${app.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

it('answers a reset request the same for a known and an unknown address, and mails only the known one', async () => {
  const user = await createUser(app);
  const known = await post('/forgot-password', { intent: 'send', email: user.email });
  const unknown = await post('/forgot-password', { intent: 'send', email: 'nobody-here@example.com' });
  expect([known.status, unknown.status]).toEqual([200, 200]);
  const [knownHtml, unknownHtml] = [await known.text(), await unknown.text()];
  for (const html of [knownHtml, unknownHtml]) {
    expect(html).toContain(AUTH_MESSAGES.resetCodeMaybeSent('email'));
    expect(html).not.toContain(AUTH_MESSAGES.userNotFound);
  }
  await smtp.waitFor((m) => m.to.includes(user.email));
  // The known address's mail went through the same queue first: nothing follows for the other.
  const later = await post('/forgot-password', { intent: 'send', email: user.email });
  expect(later.status).toBe(200);
  await expect.poll(() => smtp.messages.filter((m) => m.to.includes(user.email)).length).toBe(2);
  expect(smtp.messages.some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);

  // The next step tells no more: a code for an unknown address is just a wrong code.
  const reset = await post('/forgot-password', {
    intent: 'reset',
    email: 'nobody-here@example.com',
    code: '123456',
    password: 'New-secret2!',
    confirmPassword: 'New-secret2!',
  });
  expect(reset.status).toBe(400);
  expect(await reset.text()).toContain(AUTH_MESSAGES.codeMismatch);
});

it('links an unconfirmed account to its own confirmation page', async () => {
  const user = await createUser(app, { username: 'unconfirmed_ann' });
  await app.services.db('users').where({ id: user.id }).update({ email_verified: false });
  const res = await post('/amplify-login', { username: 'unconfirmed_ann', password: user.password });
  const html = await res.text();
  expect(html).toContain(AUTH_MESSAGES.confirmFirst);
  expect(html).toContain('href="/amplify-confirm-email?username=unconfirmed_ann"');
});

it('takes an admin to /admin and everyone else back where they were', async () => {
  const admin = await createUser(app, { role: 'admin' });
  const reader = await createUser(app);
  const signIn = async (email: string, password: string, redirectTo: string) =>
    (await post('/login', { email, password, redirectTo })).headers.get('location');
  expect(await signIn(admin.email, admin.password, '/blog')).toBe('/admin');
  expect(await signIn(admin.email, admin.password, '/admin/posts/new')).toBe('/admin/posts/new');
  expect(await signIn(reader.email, reader.password, '/blog')).toBe('/blog');
  expect(await signIn(reader.email, reader.password, '')).toBe('/');
});
