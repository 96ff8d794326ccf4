import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, signedInSession } from '../support/auth.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { until } from '../support/until.ts';

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

const post = (action: string | null, body: object, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/api/users${action ? `?action=${action}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: await res.json(), headers: res.headers }));

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

describe('accounts through the API', () => {
  it('signs up, confirms with the mailed code, signs in with a token, and signs out', async () => {
    const created = await post(null, {
      username: 'maya',
      email: 'maya@example.com',
      password: 'Sunny-day1!',
    });
    expect(created.status).toBe(201);
    expect((await post('login', { username: 'maya', password: 'Sunny-day1!' })).body.message).toBe(
      'Please confirm your email address before signing in',
    );
    const mail = await smtp.waitFor((m) => m.to.includes('maya@example.com'));
    expect((await post('confirm', { username: 'maya', code: '000000' })).body.message).toBe(
      'Invalid verification code. Please check the code and try again.',
    );
    expect((await post('confirm', { username: 'maya', code: codeIn(mail.text) })).status).toBe(200);
    const login = await post('login', { email: 'MAYA@example.com', password: 'Sunny-day1!' });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: 'maya@example.com', username: 'maya', role: 'user' });
    expect(login.headers.get('set-cookie')).toMatch(
      /^sid=[\w-]+; path=\/; expires=.*; samesite=lax; httponly/i,
    );
    const auth = { authorization: `Bearer ${login.body.token}` };
    const me = await fetch(`${app.url}/api/users?action=me`, { headers: auth });
    expect((await me.json()).user.username).toBe('maya');
    expect((await post('logout', {}, auth)).status).toBe(200);
    expect((await fetch(`${app.url}/api/users?action=me`, { headers: auth })).status).toBe(401);
  });

  it('answers the specification messages for taken usernames, weak passwords and bad formats', async () => {
    await createUser(app, { username: 'taken_name' });
    expect(
      (await post(null, { username: 'taken_name', email: 'new@example.com', password: 'Sunny-day1!' })).body
        .message,
    ).toBe('An account with this username already exists. Please choose a different username.');
    expect(
      (await post(null, { username: 'fresh', email: 'fresh@example.com', password: 'weak' })).body.message,
    ).toBe('Password does not meet requirements. Please check the password criteria.');
    expect(
      (await post(null, { username: 'bad name!', email: 'x@example.com', password: 'Sunny-day1!' })).body
        .message,
    ).toBe('Invalid username format. Please use only letters, numbers, underscore, or hyphen.');
    expect(
      (await post(null, { username: 'okname', email: 'nope', password: 'Sunny-day1!' })).body.message,
    ).toBe('Invalid email address format. Please check your email and try again.');
    expect((await post('login', { email: 'ghost@example.com', password: 'whatever' })).body.message).toBe(
      'Failed to sign in. Please check your credentials.',
    );
  });

  it('resets a forgotten password with the mailed code and signs out the old sessions', async () => {
    const user = await createUser(app, { username: 'forgetful', email: 'forgetful@example.com' });
    const old = await post('login', { username: 'forgetful', password: user.password });
    expect((await post('forgot', { username: 'forgetful' })).status).toBe(200);
    const mail = await smtp.waitFor(
      (m) => m.to.includes('forgetful@example.com') && /reset/i.test(m.subject),
    );
    const reset = await post('reset', {
      username: 'forgetful',
      code: codeIn(mail.text),
      password: 'Brand-new9!',
    });
    expect(reset.body.message).toBe('Password reset successful');
    expect(
      (
        await fetch(`${app.url}/api/users?action=me`, {
          headers: { authorization: `Bearer ${old.body.token}` },
        })
      ).status,
    ).toBe(401);
    expect((await post('login', { username: 'forgetful', password: 'Brand-new9!' })).status).toBe(200);
  });

  it('answers a reset request for an unknown account as for a known one, and mails nothing', async () => {
    await createUser(app, { username: 'known-one', email: 'known-one@example.com' });
    const unknown = await post('forgot', { email: 'nobody-here@example.com' });
    const known = await post('forgot', { email: 'known-one@example.com' });
    expect(known).toMatchObject({
      status: 200,
      body: { message: 'If an account exists for that address, a code is on its way' },
    });
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: known.status,
      body: known.body,
    });
    const byName = await post('forgot', { username: 'known-one' });
    expect(await post('forgot', { username: 'nobody-here' })).toMatchObject({
      status: byName.status,
      body: byName.body,
    });
    // The known account's mails were queued after the unknown's request: once they arrive, nothing else came.
    await until(
      () => smtp.messages.filter((m) => m.to.includes('known-one@example.com')).length === 2,
      'both reset mails to the known account',
    );
    expect(smtp.messages.filter((m) => m.to.some((to) => to.includes('nobody-here')))).toEqual([]);
    expect(
      await post('reset', { email: 'nobody-here@example.com', code: '123456', password: 'Brand-new9!' }),
    ).toMatchObject({
      status: 400,
      body: { message: 'Invalid verification code. Please check the code and try again.' },
    });
  });

  it('lists users for admins only', async () => {
    expect((await fetch(`${app.url}/api/users`)).status).toBe(401);
    const { headers: userHeaders } = await signedInSession(app);
    expect((await fetch(`${app.url}/api/users`, { headers: userHeaders })).status).toBe(403);
    const { headers } = await signedInSession(app, { role: 'admin' });
    const res = await fetch(`${app.url}/api/users`, { headers });
    const body = await res.json();
    expect(body.users.length).toBeGreaterThan(1);
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/);
  });
});

describe('rate limits', () => {
  it('refuses an account after ten wrong passwords, even the right one, with 429 and Retry-After', async () => {
    const user = await createUser(app, { username: 'target', email: 'target@example.com' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await post('login', { username: 'target', password: `wrong-${i}` })).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const right = await post('login', { username: 'target', password: user.password });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(right.body.message).toMatch(/Too many failed sign-in attempts/);
  });
});

describe('logs', () => {
  it('never writes a password, token, session id or code when SMTP delivers the mail', async () => {
    const created = await post(null, {
      username: 'quiet',
      email: 'quiet@example.com',
      password: 'Secret-pass1!',
    });
    expect(created.status).toBe(201);
    const mail = await smtp.waitFor((m) => m.to.includes('quiet@example.com'));
    const code = codeIn(mail.text);
    await post('confirm', { username: 'quiet', code });
    const login = await post('login', { username: 'quiet', password: 'Secret-pass1!' });
    await fetch(`${app.url}/api/users?action=me`, {
      headers: { authorization: `Bearer ${login.body.token}` },
    });
    await new Promise((r) => setTimeout(r, 300));
    const logs = app.logText();
    expect(logs).not.toContain('Secret-pass1!');
    expect(logs).not.toContain(login.body.token);
    expect(logs).not.toContain(code);
  });
});
