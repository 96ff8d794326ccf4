import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES } from '../../src/identity/passkey-messages.ts';
import { passkeySignInOptions } from '../../src/identity/passkeys.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { refusal } from '../support/refusal.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { SoftAuthenticator } from '../support/webauthn.ts';

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

async function call(
  method: 'GET' | 'POST',
  action: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${app.url}/api/users?action=${action}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}
const post = (action: string, body: unknown, headers?: Record<string, string>) =>
  call('POST', action, body, headers);

/** A signed-in account with one passkey, added through the API. */
async function accountWithPasskey(name = 'Laptop') {
  const session = await signedInSession(app);
  const authenticator = new SoftAuthenticator(app.url);
  const options = await post('passkey-register-options', {}, session.headers);
  expect(options.status).toBe(200);
  const added = await post(
    'passkey-register',
    { name, response: authenticator.register(options.body.options) },
    session.headers,
  );
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { ...session, authenticator, passkey: added.body.passkey as { id: string; name: string } };
}

async function loginOptions() {
  const options = await post('passkey-login-options', {});
  expect(options.status).toBe(200);
  return options.body.options as { challenge: string; rpId: string; allowCredentials?: unknown[] };
}

describe('registering a passkey', () => {
  it('asks for a discoverable passkey with the public site as the relying party, for a signed-in account', async () => {
    expect((await post('passkey-register-options', {})).status).toBe(401);
    const { user, headers } = await signedInSession(app, { firstName: 'Ada', lastName: 'Lovelace' });
    const { status, body } = await post('passkey-register-options', {}, headers);
    expect(status).toBe(200);
    expect(body.options.rp).toEqual({ name: 'Penstand', id: new URL(app.url).hostname });
    expect(body.options.user.name).toBe(user.email);
    expect(body.options.user.displayName).toBe('Ada Lovelace');
    expect(body.options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'preferred',
    });
    expect(body.options.excludeCredentials).toEqual([]);
  });

  it('keeps the named passkey, lists it, excludes it from the next registration and mails the owner', async () => {
    const { user, headers, passkey, authenticator } = await accountWithPasskey('Work laptop');
    expect(passkey).toMatchObject({ id: authenticator.id, name: 'Work laptop' });
    const listed = await call('GET', 'passkeys', undefined, headers);
    expect(listed.body.passkeys).toEqual([
      { id: authenticator.id, name: 'Work laptop', createdAt: expect.any(String), lastUsedAt: null },
    ]);
    const row = await app.services.db('passkeys').where({ id: authenticator.id }).first();
    expect(row).toMatchObject({ user_id: user.id, transports: ['internal'], name: 'Work laptop' });
    expect(Buffer.isBuffer(row.public_key)).toBe(true);
    const again = await post('passkey-register-options', {}, headers);
    expect(again.body.options.excludeCredentials).toEqual([
      { id: authenticator.id, transports: ['internal'], type: 'public-key' },
    ]);
    const mail = await smtp.waitFor(
      (m) => m.to.includes(user.email) && m.subject === 'A passkey was added to your Penstand account',
    );
    expect(mail.text).toContain('“Work laptop”');
  });

  it('refuses bad answers with a 400 and a message, and keeps nothing', async () => {
    const { headers } = await signedInSession(app);
    const authenticator = new SoftAuthenticator(app.url);
    const refused = async (body: unknown, message: string) => {
      const answer = await post('passkey-register', body, headers);
      expect(answer, JSON.stringify(body).slice(0, 200)).toEqual({ status: 400, body: { message } });
    };
    const options = (await post('passkey-register-options', {}, headers)).body.options;
    await refused({}, PASSKEY_MESSAGES.nameNeeded);
    await refused({ name: 'Key' }, PASSKEY_MESSAGES.malformed);
    await refused({ name: '  ', response: authenticator.register(options) }, PASSKEY_MESSAGES.nameNeeded);
    await refused(
      { name: 'x'.repeat(61), response: authenticator.register(options) },
      PASSKEY_MESSAGES.nameTooLong,
    );
    await refused(
      { name: 'Key\u0007', response: authenticator.register(options) },
      PASSKEY_MESSAGES.nameInvalid,
    );
    await refused(
      { name: 'Key', response: { ...authenticator.register(options), type: 'password' } },
      PASSKEY_MESSAGES.malformed,
    );
    // Another site's page, or a challenge this server never gave, or one of a sign-in.
    await refused(
      { name: 'Key', response: authenticator.register(options, { origin: 'https://evil.example' }) },
      PASSKEY_MESSAGES.notVerified,
    );
    await refused(
      { name: 'Key', response: authenticator.register({ ...options, challenge: 'bm90LW91cnM' }) },
      PASSKEY_MESSAGES.expired,
    );
    const signInChallenge = (await loginOptions()).challenge;
    await refused(
      { name: 'Key', response: authenticator.register({ ...options, challenge: signInChallenge }) },
      PASSKEY_MESSAGES.expired,
    );
    // The first use of the challenge (the wrong origin) spent it.
    await refused({ name: 'Key', response: authenticator.register(options) }, PASSKEY_MESSAGES.expired);
    expect((await call('GET', 'passkeys', undefined, headers)).body.passkeys).toEqual([]);
  });

  it('will not add one passkey twice', async () => {
    const { headers, authenticator } = await accountWithPasskey();
    const options = (await post('passkey-register-options', {}, headers)).body.options;
    const twice = await post(
      'passkey-register',
      { name: 'Again', response: authenticator.register(options) },
      headers,
    );
    expect(twice).toEqual({ status: 409, body: { message: PASSKEY_MESSAGES.alreadyAdded } });
  });
});

describe('signing in with a passkey', () => {
  it('signs in with no account named and no password, skips two-factor, and records the sign-in', async () => {
    const { user, authenticator } = await accountWithPasskey();
    // Two-factor on: the passkey is both factors, so no code step follows.
    await app.services
      .db('users')
      .where({ id: user.id })
      .update({ totp_secret: 'JBSWY3DPEHPK3PXP', totp_enabled_at: new Date() });
    const options = await loginOptions();
    expect(options.rpId).toBe(new URL(app.url).hostname);
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options).toMatchObject({ userVerification: 'preferred' });
    const signedIn = await post('passkey-login', { response: authenticator.authenticate(options) });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: user.id, email: user.email });
    expect(signedIn.body.challenge).toBeUndefined();
    const me = await call('GET', 'me', undefined, { authorization: `Bearer ${signedIn.body.token}` });
    expect(me.body.user).toMatchObject({ userId: user.id, signInDetails: { authFlowType: 'WEBAUTHN' } });
    const row = await app.services.db('passkeys').where({ id: authenticator.id }).first();
    expect(Number(row.counter)).toBe(1);
    expect(row.last_used_at).toBeInstanceOf(Date);
    const audit = await app.services.db('audit_log').where({ actor_id: user.id, action: 'sign-in' });
    expect(audit).toHaveLength(1);
    expect(audit[0].status).toBe(200);
  });

  it('refuses replays, forgeries, other origins and unknown passkeys with a 400', async () => {
    const { authenticator } = await accountWithPasskey();
    const refused = async (response: unknown, message: string) => {
      const answer = await post('passkey-login', { response });
      expect(answer).toEqual({ status: 400, body: { message } });
    };
    const before = await app.services
      .db('audit_log')
      .where({ action: 'sign-in failed' })
      .count({ n: '*' })
      .first();

    await refused(undefined, PASSKEY_MESSAGES.malformed);
    await refused({ id: 'x' }, PASSKEY_MESSAGES.malformed);
    const first = authenticator.authenticate(await loginOptions());
    expect((await post('passkey-login', { response: first })).status).toBe(200);
    await refused(first, PASSKEY_MESSAGES.expired);

    const forged = authenticator.authenticate(await loginOptions());
    const signature = Buffer.from(forged.response.signature, 'base64url');
    signature[signature.length - 1] ^= 1;
    await refused(
      { ...forged, response: { ...forged.response, signature: signature.toString('base64url') } },
      PASSKEY_MESSAGES.notVerified,
    );
    await refused(
      authenticator.authenticate(await loginOptions(), { origin: 'https://evil.example' }),
      PASSKEY_MESSAGES.notVerified,
    );
    await refused(
      authenticator.authenticate(await loginOptions(), {
        userHandle: Buffer.from('penstand:1').toString('base64url'),
      }),
      PASSKEY_MESSAGES.notVerified,
    );
    // A counter that goes backwards is a cloned authenticator.
    authenticator.counter = 0;
    await refused(authenticator.authenticate(await loginOptions()), PASSKEY_MESSAGES.notVerified);

    const stranger = new SoftAuthenticator(app.url);
    stranger.register({ challenge: 'eA', rp: { id: new URL(app.url).hostname }, user: { id: 'eA' } });
    await refused(stranger.authenticate(await loginOptions()), PASSKEY_MESSAGES.unknown);

    // A challenge past its 5 minutes.
    const late = await loginOptions();
    await app.services
      .db('passkey_challenges')
      .where({ challenge: late.challenge })
      .update({ expires_at: new Date(Date.now() - 1000) });
    authenticator.counter = 100;
    await refused(authenticator.authenticate(late), PASSKEY_MESSAGES.expired);

    const after = await app.services
      .db('audit_log')
      .where({ action: 'sign-in failed' })
      .count({ n: '*' })
      .first();
    expect(Number(after?.n) - Number(before?.n)).toBe(9);
  });

  it('is refused in a deployment that signs in through Cognito', async () => {
    const cognito = { userPoolId: 'eu-west-1_x', clientId: 'x', region: 'eu-west-1', endpoint: undefined };
    expect(
      await refusal(passkeySignInOptions({ ...app.services, config: { ...app.services.config, cognito } })),
    ).toMatchObject({ status: 409, message: PASSKEY_MESSAGES.localOnly });
  });
});

describe('removing a passkey', () => {
  it('removes only the owner’s own passkey; a removed one no longer signs in', async () => {
    const owner = await accountWithPasskey();
    const other = await signedInSession(app);
    expect((await post('passkey-delete', { id: owner.passkey.id })).status).toBe(401);
    expect(await post('passkey-delete', { id: owner.passkey.id }, other.headers)).toEqual({
      status: 404,
      body: { message: PASSKEY_MESSAGES.notFound },
    });
    expect((await call('GET', 'passkeys', undefined, other.headers)).body.passkeys).toEqual([]);
    expect(await app.services.db('passkeys').where({ id: owner.passkey.id }).first('id')).toBeDefined();
    expect((await post('passkey-delete', {}, owner.headers)).status).toBe(400);

    expect(await post('passkey-delete', { id: owner.passkey.id }, owner.headers)).toEqual({
      status: 200,
      body: { message: PASSKEY_MESSAGES.removed },
    });
    expect((await call('GET', 'passkeys', undefined, owner.headers)).body.passkeys).toEqual([]);
    const answer = await post('passkey-login', {
      response: owner.authenticator.authenticate(await loginOptions()),
    });
    expect(answer).toEqual({ status: 400, body: { message: PASSKEY_MESSAGES.unknown } });
  });
});

describe('the Account page and the sign-in page', () => {
  const form = async (path: string, fields: Record<string, string>, cookie?: string) => {
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: app.url,
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, location: res.headers.get('location'), text: await res.text() };
  };

  it('adds and removes a passkey through the forms, and refuses bad fields with their message', async () => {
    const { cookie, headers } = await signedInSession(app);
    const authenticator = new SoftAuthenticator(app.url);
    const options = (await post('passkey-register-options', {}, headers)).body.options;
    const response = JSON.stringify(authenticator.register(options));
    // A NUL in any page form field is refused once, before the action (the React Router adapter).
    const nul = await form('/account', { intent: 'passkey-register', name: 'Key\u0000', response }, cookie);
    expect(nul.status).toBe(400);
    expect(nul.text).toContain('Form fields must not contain NUL characters.');
    const bell = await form('/account', { intent: 'passkey-register', name: 'Key\u0007', response }, cookie);
    expect(bell.text).toContain(PASSKEY_MESSAGES.nameInvalid);
    expect(
      (await form('/account', { intent: 'passkey-register', name: 'Key', response: '{' }, cookie)).text,
    ).toContain('missing or malformed');
    const added = await form('/account', { intent: 'passkey-register', name: 'Phone', response }, cookie);
    expect(added.text).toContain(PASSKEY_MESSAGES.added);
    const page = await fetch(`${app.url}/account`, { headers: { cookie } });
    expect(await page.text()).toContain('Phone');
    const bad = await form('/account', { intent: 'passkey-delete', id: 'x'.repeat(2000) }, cookie);
    expect(bad.status).toBe(200);
    expect(bad.text).toContain(PASSKEY_MESSAGES.notFound);
    const removed = await form('/account', { intent: 'passkey-delete', id: authenticator.id }, cookie);
    expect(removed.text).toContain(PASSKEY_MESSAGES.removed);
  });

  it('signs in on /login with the passkey’s answer and no password, to where the visitor was going', async () => {
    const { authenticator, user } = await accountWithPasskey();
    const bad = await form('/login', { intent: 'passkey', response: 'not json' });
    expect(bad.status).toBe(400);
    const answer = JSON.stringify(authenticator.authenticate(await loginOptions()));
    const signedIn = await form('/login', { intent: 'passkey', response: answer, redirectTo: '/shop' });
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe('/shop');
    const audit = await app.services.db('audit_log').where({ actor_id: user.id, action: 'sign-in' });
    expect(audit).toHaveLength(1);
  });
});

// Last in the file: it uses up this address's passkey sign-in allowance for a minute.
describe('passkey sign-in options', () => {
  it('are limited per address, so a flood cannot fill the challenge table', async () => {
    const before = Number((await app.services.db('passkey_challenges').count({ n: '*' }))[0].n);
    let allowed = 0;
    let refused: { status: number; body: { message?: string } } | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await post('passkey-login-options', {});
      if (res.status === 200) allowed++;
      else refused = res;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.body.message).toBe(
      'Too many passkey sign-in attempts from your network. Please wait a minute and try again.',
    );
    expect(allowed).toBeLessThanOrEqual(30);
    const after = Number((await app.services.db('passkey_challenges').count({ n: '*' }))[0].n);
    expect(after - before).toBe(allowed);
  });
});
