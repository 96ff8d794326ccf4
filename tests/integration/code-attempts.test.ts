import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/identity/messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser } from '../support/auth.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { mailedCode, nextAddress, usersApi, wrongCode } from '../support/users-api.ts';

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ withWorker: true, env: { SMTP_URL: smtp.url, TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

/** Runs `ask` (a request that mails a code to `name`) and answers the code of the mail it caused. */
async function codeMailed(name: string, ask: () => Promise<{ status: number }>): Promise<string> {
  const before = smtp.messages.length;
  expect((await ask()).status).toBeLessThan(300);
  const mail = await smtp.waitFor(
    (m) => m.to.includes(`${name}@example.com`) && smtp.messages.indexOf(m) >= before,
  );
  return mailedCode(mail.text);
}

const NEW_PASSWORD = 'New-passw0rd!';

/** The two kinds of mailed code, each from its first mail to its use. */
const flows = {
  confirmation: {
    begin: (name: string) =>
      codeMailed(name, () =>
        usersApi(app, null, { username: name, email: `${name}@example.com`, password: 'Sunny-day1!' }),
      ),
    again: (name: string) =>
      codeMailed(name, () => usersApi(app, 'resend', { username: name }, nextAddress())),
    attempt: (name: string, code: string, from: Record<string, string>) =>
      usersApi(app, 'confirm', { username: name, code }, from),
    took: async (name: string) =>
      (await app.services.db('users').where({ username: name }).first('email_verified'))
        .email_verified as boolean,
  },
  'password reset': {
    begin: async (name: string) => {
      await createUser(app, { username: name, email: `${name}@example.com` });
      return codeMailed(name, () => usersApi(app, 'forgot', { email: `${name}@example.com` }, nextAddress()));
    },
    again: (name: string) =>
      codeMailed(name, () => usersApi(app, 'forgot', { email: `${name}@example.com` }, nextAddress())),
    attempt: (name: string, code: string, from: Record<string, string>) =>
      usersApi(app, 'reset', { email: `${name}@example.com`, code, password: NEW_PASSWORD }, from),
    took: async (name: string) =>
      (await usersApi(app, 'login', { username: name, password: NEW_PASSWORD }, nextAddress())).status ===
      200,
  },
};

describe.each(Object.entries(flows))('%s codes', (kind, flow) => {
  const tag = kind.slice(0, 5);

  it('counts every wrong try: after 5 the right code no longer works, and a new one does', async () => {
    const name = `${tag}_eight`;
    const code = await flow.begin(name);
    const from = nextAddress();
    const answers: string[] = [];
    for (let i = 1; i <= 8; i++)
      answers.push((await flow.attempt(name, wrongCode(code, i), from)).body.message ?? '');
    expect(answers).toEqual([
      ...Array(5).fill(AUTH_MESSAGES.codeMismatch),
      ...Array(3).fill(AUTH_MESSAGES.codeExpired),
    ]);
    const right = await flow.attempt(name, code, from);
    expect(right).toMatchObject({ status: 400, body: { message: AUTH_MESSAGES.codeExpired } });
    expect(await flow.took(name)).toBe(false);

    const fresh = await flow.again(name);
    expect((await flow.attempt(name, fresh, nextAddress())).status).toBe(200);
    expect(await flow.took(name)).toBe(true);
  });

  it('judges at most 5 of 60 parallel wrong codes from 60 addresses, and the code is spent', async () => {
    const name = `${tag}_many`;
    const code = await flow.begin(name);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => flow.attempt(name, wrongCode(code, i + 1), nextAddress())),
    );
    const judged = answers.filter((a) => a.body.message === AUTH_MESSAGES.codeMismatch);
    expect(judged).toHaveLength(5);
    // The rest: the spent code, or the account's own limit on tries (10 in 15 minutes).
    for (const a of answers.filter((x) => x.body.message !== AUTH_MESSAGES.codeMismatch))
      expect([400, 429]).toContain(a.status);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    // However long one waits for the limit's window to end, the code stays spent.
    await app.services.db('rate_limits').delete();
    const right = await flow.attempt(name, code, nextAddress());
    expect(right).toMatchObject({ status: 400, body: { message: AUTH_MESSAGES.codeExpired } });
    expect(await flow.took(name)).toBe(false);
  });
});
