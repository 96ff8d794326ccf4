import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, signedInSession } from '../support/auth.ts';
import { enableTwoFactor, nextAddress, usersApi } from '../support/users-api.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { TRUST_PROXY: 'true' } });
});
afterAll(() => app?.close());

const login = (
  identifier: { email: string } | { username: string },
  password: string,
  from = nextAddress(),
) => usersApi(app, 'login', { ...identifier, password }, from);

/** Fails the identifier's sign-in `times` times, each from another address: a spread-out attacker. */
async function failFromElsewhere(identifier: { email: string } | { username: string }, times: number) {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await login(identifier, `Wrong-passw0rd-${i}`)).status);
  return statuses;
}

it('keeps the lock for strangers, not for the owner at an address the account signed in from before', async () => {
  const owner = await createUser(app);
  const home = nextAddress();
  expect((await login({ email: owner.email }, owner.password, home)).status).toBe(200);

  expect(await failFromElsewhere({ email: owner.email }, 12)).toEqual([...Array(10).fill(401), 429, 429]);
  // A stranger with the right password is refused too: the lock holds where it is meant to.
  expect((await login({ email: owner.email }, owner.password)).status).toBe(429);
  // The owner at home is not: failures from elsewhere do not count there.
  expect((await login({ email: owner.email }, owner.password, home)).status).toBe(200);
  // The owner's own mistakes at home have a limit of their own.
  for (let i = 0; i < 10; i++)
    expect((await login({ email: owner.email }, 'Wrong-passw0rd!', home)).status).toBe(401);
  expect((await login({ email: owner.email }, owner.password, home)).status).toBe(429);
});

it('lets a right password with a right second factor through a lock set from elsewhere', async () => {
  const { user, sid } = await signedInSession(app);
  const code = await enableTwoFactor(app, sid);

  expect(await failFromElsewhere({ email: user.email }, 11)).toEqual([...Array(10).fill(401), 429]);
  const traveller = nextAddress();
  // A wrong password is still refused by the lock; the right one goes on to the code.
  expect((await login({ email: user.email }, 'Wrong-passw0rd!', traveller)).status).toBe(429);
  const challenged = await login({ email: user.email }, user.password, traveller);
  expect(challenged).toMatchObject({ status: 401, body: { challenge: 'totp' } });
  const signedIn = await usersApi(
    app,
    'login-2fa',
    { challengeId: challenged.body.challengeId, code: code(1) },
    traveller,
  );
  expect(signedIn.status).toBe(200);
  expect(signedIn.body.user).toMatchObject({ email: user.email });
});

it('locks an email and a username apart, for an account as for unknown ones, so a lock links nothing', async () => {
  const user = await createUser(app);
  const username = user.username ?? '';
  const cases = [
    { locked: { email: user.email }, other: { username } },
    { locked: { username }, other: { email: user.email } },
    { locked: { email: 'nobody@example.com' }, other: { username: 'nobody_at_all' } },
  ];
  for (const { locked, other } of cases) {
    await app.services.db('rate_limits').delete();
    expect(await failFromElsewhere(locked, 11)).toEqual([...Array(10).fill(401), 429]);
    expect((await login(other, 'Wrong-passw0rd!')).status).toBe(401);
  }
});
