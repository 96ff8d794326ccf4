import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoFactorEnabled } from '../../src/identity/two-factor.ts';
import { parseCsv } from '../../src/kernel/csv.ts';
import { getBlogSettings } from '../../src/settings/settings.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { SoftAuthenticator } from '../support/webauthn.ts';

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ withWorker: true, env: { SMTP_URL: smtp.url } });
  await seedDemo(app);
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const json = { 'content-type': 'application/json' };

async function signIn(username: string, password: string, userAgent: string) {
  const res = await fetch(`${app.url}/api/users?action=login`, {
    method: 'POST',
    headers: { ...json, 'user-agent': userAgent },
    body: JSON.stringify({ username, password }),
  });
  return { status: res.status, token: (await res.json()).token as string | undefined };
}

const me = async (token: string) =>
  (await fetch(`${app.url}/api/users?action=me`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('sessions', () => {
  it('lists where an account is signed in and signs out everywhere else', async () => {
    const user = await createUser(app, { username: 'traveller' });
    const phone = await signIn(
      'traveller',
      user.password,
      'Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile Safari/537.36',
    );
    const laptop = await signIn(
      'traveller',
      user.password,
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Firefox/131.0',
    );
    if (!phone.token || !laptop.token) throw new Error('sign-in failed');
    const page = await fetch(`${app.url}/account`, { headers: { cookie: `sid=${laptop.token}` } });
    const html = await page.text();
    expect(html).toContain('Chrome on Android (mobile)');
    expect(html).toContain('Firefox on macOS (desktop)');
    expect(html).toContain('This device');
    // Each with the network it is used from (not the address itself) and when it was last active.
    const lines = (html.match(/<li class="session-item">[\s\S]*?<\/p>/g) ?? []).map((line) =>
      line.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ' '),
    );
    expect(lines).toHaveLength(2);
    for (const line of lines)
      expect(line).toMatch(/From network 127\.0\.0\.0\/24 · Signed in .+ · last active around .+\d/);
    // The page never shows a session id: it is a credential.
    expect(html).not.toContain(phone.token);
    expect(html).not.toContain(laptop.token);

    const ended = await fetch(`${app.url}/account`, {
      method: 'POST',
      headers: {
        cookie: `sid=${laptop.token}`,
        origin: app.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'intent=end-others',
    });
    expect(await ended.text()).toContain('Signed out of 1 other session.');
    expect(await me(phone.token)).toBe(401);
    expect(await me(laptop.token)).toBe(200);
    const anonymous = await fetch(`${app.url}/account`, { redirect: 'manual' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/login?redirectTo=%2Faccount');
  });

  it('ends every other session when the password changes', async () => {
    const user = await createUser(app, { username: 'careful' });
    const a = await signIn('careful', user.password, 'A');
    const b = await signIn('careful', user.password, 'B');
    const changed = await fetch(`${app.url}/api/users?action=change-password`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${a.token}` },
      body: JSON.stringify({ currentPassword: user.password, newPassword: 'N3w!passWord' }),
    });
    expect(changed.status).toBe(200);
    expect(await me(b.token ?? '')).toBe(401);
    expect(await me(a.token ?? '')).toBe(200);
  });
});

describe('two-factor sign-in through the API', () => {
  it('answers a challenge after the password, takes each code once, and turns off only with a code', async () => {
    const user = await createUser(app, { username: 'twofactor' });
    const first = await signIn('twofactor', user.password, 'X');
    const auth = { ...json, authorization: `Bearer ${first.token}` };
    const post = async (action: string, body: unknown, headers: Record<string, string> = auth) => {
      const res = await fetch(`${app.url}/api/users?action=${action}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const setup = await post('2fa-setup', {});
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Penstand:/);
    const code = (offset = 0) =>
      new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30 }).generate({
        timestamp: Date.now() + offset * 30_000,
      });
    expect((await post('2fa-enable', { code: '123456' === code() ? '654321' : '123456' })).status).toBe(400);
    const enabled = await post('2fa-enable', { code: code() });
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    const on = await smtp.waitFor(
      (m) => m.to.includes(user.email) && m.subject === 'Two-factor sign-in is on for your Penstand account',
    );
    expect(on.text).toContain('Two-factor sign-in was turned on at');
    expect(on.text).toContain(`${app.url}/account`);
    // Turning it on is a privilege change: the session id rotated, the old one is worthless.
    expect(await me(first.token ?? '')).toBe(401);
    expect(await me(enabled.body.token)).toBe(200);

    const challenged = await post('login', { username: 'twofactor', password: user.password }, json);
    expect(challenged).toMatchObject({
      status: 401,
      body: { challenge: 'totp', challengeId: expect.any(String) },
    });
    expect(challenged.body.token).toBeUndefined();
    const finished = await post(
      'login-2fa',
      { challengeId: challenged.body.challengeId, code: code(1) },
      json,
    );
    expect(finished.status).toBe(200);
    expect(await me(finished.body.token)).toBe(200);
    const again = await post('login', { username: 'twofactor', password: user.password }, json);
    expect(
      (await post('login-2fa', { challengeId: again.body.challengeId, code: code(1) }, json)).status,
    ).toBe(401);
    // A wrong password never reaches the second step.
    expect(
      (await post('login', { username: 'twofactor', password: 'Wr0ng!pass' }, json)).body.challengeId,
    ).toBeUndefined();

    const owner = { ...json, authorization: `Bearer ${finished.body.token}` };
    expect((await post('2fa-disable', {}, owner)).status).toBe(400);
    expect((await post('2fa-disable', { code: enabled.body.recoveryCodes[0] }, owner)).status).toBe(200);
    expect((await signIn('twofactor', user.password, 'X')).token).toBeDefined();
    await smtp.waitFor(
      (m) => m.to.includes(user.email) && m.subject === 'Two-factor sign-in is off for your Penstand account',
    );
  });
});

/** Turns two-factor on through the API for the session `token`; answers the rotated token and the key. */
async function enableTwoFactorByApi(token: string): Promise<{ token: string; secret: string }> {
  const call = async (action: string, body: unknown) =>
    (
      await fetch(`${app.url}/api/users?action=${action}`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      })
    ).json();
  const { secret } = await call('2fa-setup', {});
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  const enabled = await call('2fa-enable', { code });
  return { token: enabled.token, secret };
}

describe("'Require two-factor for admins'", () => {
  it('refuses the admin API to an admin without two-factor, naming the setting, until it is on', async () => {
    const admin = await signedInSession(app, { role: 'admin' });
    const as = (token: string) => ({ ...json, authorization: `Bearer ${token}` });
    const settings = {
      title: 'Penstand',
      description: 'Desc',
      authorName: 'Ada',
      authorBio: 'Bio',
      shopRequiresSignIn: false,
    };
    const put = (token: string, body: object) =>
      fetch(`${app.url}/api/settings`, { method: 'PUT', headers: as(token), body: JSON.stringify(body) });
    const turnedOn = await put(admin.sid, { ...settings, requireAdminTwoFactor: true });
    expect(turnedOn.status).toBe(200);
    expect((await turnedOn.json()).settings.requireAdminTwoFactor).toBe(true);

    for (const [method, path] of [
      ['GET', '/api/admin/audit'],
      ['GET', '/api/users'],
      ['PUT', '/api/settings'],
      ['GET', '/api/posts?status=draft'],
      ['GET', '/api/posts?status=all'],
    ]) {
      const refused = await fetch(`${app.url}${path}`, {
        method,
        headers: as(admin.sid),
        body: method === 'GET' ? undefined : JSON.stringify({ ...settings, requireAdminTwoFactor: false }),
      });
      expect(refused.status, path).toBe(403);
      expect((await refused.json()).message).toContain('‘Require two-factor for admins’ is on');
    }
    // The admin pages send this admin to the Account page's setup instead.
    const page = await fetch(`${app.url}/admin?tab=settings`, { headers: admin.headers, redirect: 'manual' });
    expect([page.status, page.headers.get('location')]).toEqual([302, '/account']);
    // Signed-in users who are not admins are not affected, and reading still works.
    const reader = await signedInSession(app);
    expect(
      (await fetch(`${app.url}/api/users?action=me`, { headers: { authorization: `Bearer ${reader.sid}` } }))
        .status,
    ).toBe(200);

    const { token } = await enableTwoFactorByApi(admin.sid);
    expect((await fetch(`${app.url}/api/admin/audit`, { headers: as(token) })).status).toBe(200);
    // A save that leaves the setting out keeps it; only an explicit false turns it off.
    await put(token, settings);
    expect((await getBlogSettings(app.services.db)).requireAdminTwoFactor).toBe(true);
    expect((await put(token, { ...settings, requireAdminTwoFactor: false })).status).toBe(200);
    expect((await getBlogSettings(app.services.db)).requireAdminTwoFactor).toBe(false);
  });
});

describe('two-factor on the Account page', () => {
  it('counts code guesses against the same limit as the API, so the right code waits too', async () => {
    const user = await signedInSession(app);
    const { token, secret } = await enableTwoFactorByApi(user.sid);
    const turnOff = async (code: string) =>
      (
        await fetch(`${app.url}/account`, {
          method: 'POST',
          headers: {
            cookie: `sid=${token}`,
            origin: app.url,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ intent: '2fa-disable', code }),
        })
      ).text();
    // Ten attempts in 15 minutes, the API's 2fa-enable above included.
    for (let i = 0; i < 9; i++)
      expect(await turnOff('not-a-code')).toContain('That code is not right, or it was already used.');
    expect(await turnOff('not-a-code')).toContain('Too many two-factor code attempts.');
    const right = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
      timestamp: Date.now() + 30_000,
    });
    expect(await turnOff(right)).toContain('Too many two-factor code attempts.');
    expect(await twoFactorEnabled(app.services.db, user.user.id)).toBe(true);

    // Adding a passkey has its own limit: the two-factor attempts above do not refuse it.
    const headers = { ...json, authorization: `Bearer ${token}` };
    const register = async (action: string, body: unknown) =>
      fetch(`${app.url}/api/users?action=${action}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const options = await (await register('passkey-register-options', {})).json();
    const added = await register('passkey-register', {
      name: 'Phone',
      response: new SoftAuthenticator(app.url).register(options.options),
    });
    expect(added.status, await added.clone().text()).toBe(201);
  });
});

describe('security notices', () => {
  it('mails the owner on a sign-in from a new browser and on a password change, not on a known one', async () => {
    const user = await createUser(app, { username: 'noticed' });
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Firefox/131.0';
    const android = 'Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile Safari/537.36';
    await signIn('noticed', user.password, mac);
    await signIn('noticed', user.password, mac);
    const fromPhone = await signIn('noticed', user.password, android);
    const notice = await smtp.waitFor(
      (m) => m.to.includes(user.email) && m.subject === 'New sign-in to your Penstand account',
    );
    expect(notice.text).toContain('Chrome on Android (mobile)');
    expect(notice.text).toContain(`${app.url}/account`);
    await fetch(`${app.url}/api/users?action=change-password`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${fromPhone.token}` },
      body: JSON.stringify({ currentPassword: user.password, newPassword: 'N3w!passWord' }),
    });
    await smtp.waitFor(
      (m) => m.to.includes(user.email) && m.subject === 'Your Penstand password was changed',
    );
    // The first sign-in and the second from the same browser sent nothing.
    expect(
      smtp.messages.filter((m) => m.to.includes(user.email) && m.subject.startsWith('New sign-in')),
    ).toHaveLength(1);
  });
});

describe('the audit log', () => {
  it("records every user's two-factor changes and both steps of a two-factor sign-in", async () => {
    const { db } = app.services;
    const since = Number((await db('audit_log').max({ id: 'id' }).first())?.id ?? 0);
    const user = await createUser(app, { username: 'audited2fa' });
    const first = await signIn('audited2fa', user.password, 'X');
    const { token, secret } = await enableTwoFactorByApi(first.token ?? '');
    const post = (action: string, body: unknown) =>
      fetch(`${app.url}/api/users?action=${action}`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(body),
      }).then(async (res) => ({ status: res.status, body: await res.json() }));
    const challenged = await post('login', { username: 'audited2fa', password: user.password });
    expect(challenged.status).toBe(401);
    expect(
      (await post('login-2fa', { challengeId: challenged.body.challengeId, code: 'nope-nope' })).status,
    ).toBe(401);
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
      timestamp: Date.now() + 30_000,
    });
    expect((await post('login-2fa', { challengeId: challenged.body.challengeId, code })).status).toBe(200);
    const off = await fetch(`${app.url}/account`, {
      method: 'POST',
      headers: {
        cookie: `sid=${token}`,
        origin: app.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ intent: '2fa-disable', code: 'not-a-code' }),
    });
    await off.arrayBuffer();

    const rows = await db('audit_log')
      .where('id', '>', since)
      .orderBy('id')
      .select('action', 'actor_email', 'status');
    expect(rows.map((r) => [r.action, r.actor_email, r.status])).toEqual([
      ['sign-in', user.email, 200],
      ['Two-factor setup started', user.email, 200],
      ['Two-factor sign-in turned on', user.email, 200],
      // The password was right: not a failed sign-in, but a sign-in waiting for its code.
      ['sign-in awaiting two-factor code', user.email, 401],
      // A wrong code names the account it was for.
      ['sign-in failed: two-factor code refused', user.email, 401],
      ['sign-in', user.email, 200],
      // The Account page answers a wrong code with 200 and the message: the log says refused.
      [
        'Two-factor sign-in turned off: refused (That code is not right, or it was already used. Try the next one.)',
        user.email,
        400,
      ],
    ]);
  });

  it('records each admin write and every sign-in, and cannot be changed', async () => {
    const { db } = app.services;
    const admin = await signedInSession(app, { role: 'admin' });
    const headers = { ...admin.headers, ...json };
    const post = await fetch(`${app.url}/api/posts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: 'Audited',
        content: 'Body text',
        excerpt: 'E',
        category: 'Technology',
        status: 'draft',
      }),
    });
    expect(post.status).toBe(201);
    const draft = (await post.json()).post;
    const published = await fetch(`${app.url}/api/posts?id=${draft.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({
        title: 'Audited',
        content: 'Body text',
        excerpt: 'E',
        category: 'Technology',
        status: 'published',
      }),
    });
    expect(published.status).toBe(200);
    const saved = await fetch(`${app.url}/admin?tab=settings`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        intent: 'save-settings',
        title: 'Audited blog',
        description: 'D',
        authorName: 'A',
        authorBio: 'B',
      }),
    });
    expect(await saved.text()).toContain('Settings saved');
    const [comment, other] = await db('comments as c')
      .join('posts as p', 'p.id', 'c.post_id')
      .where({ 'c.approved': false })
      .orderBy('c.id')
      .limit(2)
      .select('c.id', 'c.author', 'p.title');
    await fetch(`${app.url}/api/comments?id=${comment.id}&action=moderate`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ approved: true }),
    });
    const adminForm = (fields: Record<string, string>) =>
      fetch(`${app.url}/admin`, {
        method: 'POST',
        headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      }).then((res) => res.text());
    await adminForm({ intent: 'moderate', id: String(other.id), decision: 'reject' });
    await adminForm({ intent: 'create-discount', code: 'AUDIT10', type: 'percent', value: '10' });
    await adminForm({ intent: 'create-discount', code: 'AUDIT10', type: 'percent', value: '10' });
    const product = await createProductRow(db, { price: 1000 });
    const guest = new GuestClient(app);
    await guest.add(product.id);
    const order = (await guest.checkout(validCheckout)).body;
    await fetch(`${app.url}/api/admin/orders/${order.id}?action=mark-paid`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    await fetch(`${app.url}/api/admin/orders/${order.id}?action=refund`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ amount: 100 }),
    });
    const cleared = await fetch(`${app.url}/admin`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'intent=clear-cache',
    });
    expect(cleared.status).toBe(200);
    const user = await createUser(app, { username: 'auditee' });
    expect((await signIn('auditee', 'wrong-password-1', 'X')).status).toBe(401);
    expect((await signIn('auditee', user.password, 'X')).status).toBe(200);

    // A hydrated sign-in form posts to /login.data (React Router's single fetch): audited the same.
    const formUser = await createUser(app);
    const viaPage = await fetch(`${app.url}/login.data`, {
      method: 'POST',
      headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: formUser.email, password: formUser.password }),
    });
    expect(viaPage.status).toBeLessThan(400);
    await viaPage.arrayBuffer();
    const formSignIn = await db('audit_log')
      .where({ actor_email: formUser.email, action: 'sign-in' })
      .first();
    expect(formSignIn).toBeDefined();

    const log = await fetch(`${app.url}/api/admin/audit?actor=${encodeURIComponent(admin.user.email)}`, {
      headers: admin.headers,
    });
    const { entries } = await log.json();
    const actions = entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'POST /api/posts',
        'PUT /api/posts',
        'POST /admin (save-settings)',
        `Comment approved: comment #${comment.id} by ${comment.author} on “${comment.title}”`,
        `Comment rejected: comment #${other.id} by ${other.author} on “${other.title}”`,
        'Discount code “AUDIT10” created',
        `POST /api/admin/orders/${order.id} (mark-paid)`,
        `POST /api/admin/orders/${order.id} (refund)`,
        'POST /admin (clear-cache)',
      ]),
    );
    // The second code of the same name was refused, and the log says so (the form answered 200).
    expect(
      entries.find((e: { action: string }) =>
        e.action.startsWith('Discount code “AUDIT10” created: refused'),
      ),
    ).toMatchObject({ status: 400 });
    const created = entries.find((e: { action: string }) => e.action === 'POST /api/posts');
    expect(created).toMatchObject({
      actorEmail: admin.user.email,
      status: 201,
      clientIp: expect.any(String),
    });
    expect(created.requestId).toMatch(/^[\w-]{8,}$/);
    expect(entries.find((e: { action: string }) => e.action.includes('(refund)'))).toMatchObject({
      target: String(order.id),
    });
    expect(entries.find((e: { action: string }) => e.action === 'PUT /api/posts')).toMatchObject({
      target: String(draft.id),
      status: 200,
    });

    const signIns = (
      await (await fetch(`${app.url}/api/admin/audit?action=sign-in`, { headers: admin.headers })).json()
    ).entries;
    expect(
      signIns.map((e: { action: string; actorEmail: string | null }) => [e.action, e.actorEmail]),
    ).toEqual(
      expect.arrayContaining([
        ['sign-in failed', null],
        ['sign-in', user.email],
      ]),
    );

    const csv = await (
      await fetch(`${app.url}/api/admin/audit?format=csv`, { headers: admin.headers })
    ).text();
    const records = parseCsv(csv).map((r) => r.fields);
    expect(records[0]).toEqual(['at', 'actor', 'action', 'target', 'status', 'request_id', 'client_ip']);
    expect(records.some((r) => r[2] === 'POST /admin (clear-cache)')).toBe(true);
    const subscribers = await fetch(`${app.url}/api/newsletter?action=export`, { headers: admin.headers });
    expect(subscribers.status).toBe(200);
    await subscribers.arrayBuffer();
    // Downloads of exports are recorded too (an export carries readers' addresses).
    const exports = (
      await (await fetch(`${app.url}/api/admin/audit?action=export`, { headers: admin.headers })).json()
    ).entries;
    expect(exports.map((e: { action: string; actorEmail: string }) => [e.action, e.actorEmail])).toEqual(
      expect.arrayContaining([
        ['GET /api/admin/audit (export)', admin.user.email],
        ['GET /api/newsletter (export)', admin.user.email],
      ]),
    );

    // Append-only in the database itself: no update, no delete of a recent entry.
    await expect(db('audit_log').update({ action: 'nothing happened' })).rejects.toThrow(/append-only/);
    await expect(db('audit_log').delete()).rejects.toThrow(/append-only/);
    const users = await fetch(`${app.url}/api/admin/audit`, {
      headers: (await signedInSession(app)).headers,
    });
    expect(users.status).toBe(403);
  });
});
