import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../src/identity/messages.ts';
import { hashPassword } from '../../src/identity/passwords.ts';
import { LIMITS, type LimitName } from '../../src/kernel/rate-limit.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { enableTwoFactor, nextAddress, usersApi, wrongCode } from '../support/users-api.ts';

let app: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp({ env: { TRUST_PROXY: 'true', CHECKOUT_RATE_LIMIT: '5' } });
  await seedDemo(app);
  admin = (await signedInSession(app, { role: 'admin' })).headers;
});
afterAll(() => app?.close());

/**
 * One limit's burst: `setup` prepares what the requests need and answers a request to fire (the
 * n-th of `parallel`), which answers whether it was judged (got past the limit to the work).
 */
type Burst = { cap: () => number; parallel: number; setup: () => Promise<(n: number) => Promise<boolean>> };

const WRONG = 'Wrong-passw0rd!';
const notRefused = async (answer: Promise<{ status: number }>) => (await answer).status !== 429;

function form(path: string, fields: Record<string, string>, headers: Record<string, string>) {
  return fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { origin: app.url, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  }).then(async (res) => ({ status: res.status, text: await res.text() }));
}

/** Guests from one address each (or all from `from`) with the product in their cart. */
async function guestsWithCart(count: number, productId: number) {
  const guests = Array.from({ length: count }, () => new GuestClient(app));
  for (const guest of guests) await guest.add(productId);
  return guests;
}

const points = (name: LimitName) => () => (LIMITS[name] as { points: number }).points;

// Typed by the table: a limit added to LIMITS without a burst here does not compile.
const bursts: Record<LimitName, Burst> = {
  signInAccount: {
    cap: points('signInAccount'),
    parallel: 30,
    setup: async () => {
      const user = await createUser(app);
      return () => notRefused(usersApi(app, 'login', { email: user.email, password: WRONG }, nextAddress()));
    },
  },
  signInAddress: {
    cap: points('signInAddress'),
    parallel: 70,
    setup: async () => {
      const from = nextAddress();
      return (n) =>
        notRefused(usersApi(app, 'login', { email: `nobody-${n}@example.com`, password: WRONG }, from));
    },
  },
  signUps: {
    cap: points('signUps'),
    parallel: 25,
    setup: async () => {
      const from = nextAddress();
      const tag = randomBytes(3).toString('hex');
      return (n) =>
        notRefused(
          usersApi(
            app,
            null,
            {
              username: `burst_${tag}_${n}`,
              email: `burst-${tag}-${n}@example.com`,
              password: 'Sunny-day1!',
            },
            from,
          ),
        );
    },
  },
  codeRequests: {
    cap: points('codeRequests'),
    parallel: 15,
    setup: async () => {
      const from = nextAddress();
      return () => notRefused(usersApi(app, 'resend', { username: 'code_asker' }, from));
    },
  },
  codeGuessesAddress: {
    cap: points('codeGuessesAddress'),
    parallel: 40,
    setup: async () => {
      const from = nextAddress();
      return (n) => notRefused(usersApi(app, 'confirm', { username: `guessed_${n}`, code: '123456' }, from));
    },
  },
  codeGuessesAccount: {
    cap: points('codeGuessesAccount'),
    parallel: 30,
    setup: async () => () =>
      notRefused(usersApi(app, 'confirm', { username: 'one_target', code: '123456' }, nextAddress())),
  },
  passkeyOptions: {
    cap: points('passkeyOptions'),
    parallel: 45,
    setup: async () => {
      const from = nextAddress();
      return () => notRefused(usersApi(app, 'passkey-login-options', {}, from));
    },
  },
  securityChanges: {
    cap: points('securityChanges'),
    parallel: 20,
    setup: async () => {
      const { sid } = await signedInSession(app);
      return () =>
        notRefused(
          usersApi(
            app,
            'change-password',
            { currentPassword: WRONG, newPassword: 'Another-passw0rd!' },
            { authorization: `Bearer ${sid}` },
          ),
        );
    },
  },
  twoFactorCodes: {
    cap: points('twoFactorCodes'),
    parallel: 20,
    setup: async () => {
      const { sid } = await signedInSession(app);
      const headers = { authorization: `Bearer ${sid}` };
      expect((await usersApi(app, '2fa-setup', {}, headers)).status).toBe(200);
      return () => notRefused(usersApi(app, '2fa-enable', { code: '000000' }, headers));
    },
  },
  passkeyRegistrations: {
    cap: points('passkeyRegistrations'),
    parallel: 20,
    setup: async () => {
      const { sid } = await signedInSession(app);
      // Well-formed and wrong: judged (and refused) only after the limit took its unit.
      const response = {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
      };
      return () =>
        notRefused(
          usersApi(app, 'passkey-register', { name: 'Laptop', response }, { authorization: `Bearer ${sid}` }),
        );
    },
  },
  orderLookupAddress: {
    cap: points('orderLookupAddress'),
    parallel: 35,
    setup: async () => {
      const from = nextAddress();
      return (n) =>
        notRefused(form('/orders/lookup', { orderId: '999999', email: `who-${n}@example.com` }, from));
    },
  },
  orderLookupEmail: {
    cap: points('orderLookupEmail'),
    parallel: 25,
    setup: async () => () =>
      notRefused(form('/orders/lookup', { orderId: '999999', email: 'walked@example.com' }, nextAddress())),
  },
  comments: {
    cap: points('comments'),
    parallel: 20,
    setup: async () => {
      const post = await publishedPost(app);
      const from = nextAddress();
      return (n) =>
        notRefused(
          fetch(`${app.url}/api/comments`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...from },
            body: JSON.stringify({
              postId: post.id,
              author: 'Ada',
              email: 'ada@example.com',
              content: `Burst ${n}`,
            }),
          }),
        );
    },
  },
  newsletter: {
    cap: points('newsletter'),
    parallel: 20,
    setup: async () => {
      const from = nextAddress();
      return (n) =>
        notRefused(
          fetch(`${app.url}/api/newsletter`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...from },
            body: JSON.stringify({ email: `reader-${n}@example.com` }),
          }),
        );
    },
  },
  bookmarks: {
    cap: points('bookmarks'),
    parallel: 40,
    setup: async () => {
      const { headers } = await signedInSession(app, { role: 'admin' });
      // A loopback address is refused without a request (422): only the limit is at work.
      return () =>
        notRefused(
          fetch(`${app.url}/api/admin/bookmarks`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify({ url: 'http://127.0.0.1:9/' }),
          }),
        );
    },
  },
  subscriptions: {
    cap: points('subscriptions'),
    parallel: 20,
    setup: async () => {
      const { headers } = await signedInSession(app);
      // Without Stripe keys each attempt is answered 409 after it counted: only 429 is the limit.
      return () =>
        notRefused(
          fetch(`${app.url}/api/members?action=subscribe`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ tierId: 1, interval: 'month' }),
          }),
        );
    },
  },
  checkout: {
    cap: () => app.services.config.checkoutRateLimit,
    parallel: 12,
    setup: async () => {
      const product = await createProductRow(app.services.db, { stock: null });
      const guests = await guestsWithCart(12, product.id);
      const from = nextAddress();
      return (n) => notRefused(guests[n].request('POST', '/api/orders', validCheckout, from));
    },
  },
  mailedCodeAttempts: {
    cap: points('mailedCodeAttempts'),
    parallel: 20,
    setup: async () => {
      const user = await createUser(app);
      await app.services.db('users').where({ id: user.id }).update({ email_verified: false });
      await app.services.db('auth_codes').insert({
        user_id: user.id,
        purpose: 'confirm',
        code_hash: await hashPassword('424242'),
        expires_at: new Date(Date.now() + 3600_000),
      });
      return (n) =>
        usersApi(
          app,
          'confirm',
          { username: user.username, code: wrongCode('424242', n + 1) },
          nextAddress(),
        ).then((answer) => answer.body.message === AUTH_MESSAGES.codeMismatch);
    },
  },
  twoFactorChallengeAttempts: {
    cap: points('twoFactorChallengeAttempts'),
    parallel: 20,
    setup: async () => {
      const { user, sid } = await signedInSession(app);
      const code = await enableTwoFactor(app, sid);
      const challenged = await usersApi(
        app,
        'login',
        { email: user.email, password: user.password },
        nextAddress(),
      );
      const right = new Set([code(-1), code(0), code(1)]);
      const wrong = (n: number) => {
        let guess = wrongCode(code(1), 1000 + n);
        while (right.has(guess)) guess = wrongCode(guess);
        return guess;
      };
      return async (n) =>
        (
          await usersApi(
            app,
            'login-2fa',
            { challengeId: challenged.body.challengeId, code: wrong(n) },
            nextAddress(),
          )
        ).status === 401;
    },
  },
  downloadLink: {
    cap: () => 5,
    parallel: 20,
    setup: async () => {
      const bytes = randomBytes(256 * 1024);
      const product = await createProductRow(app.services.db, { stock: null });
      const file = new FormData();
      file.append('file', new Blob([new Uint8Array(bytes)]), 'book.pdf');
      file.append('name', 'Book');
      const uploaded = await fetch(`${app.url}/api/admin/products/${product.id}/files`, {
        method: 'POST',
        body: file,
        headers: admin,
      });
      expect(uploaded.status).toBe(201);
      const [guest] = await guestsWithCart(1, product.id);
      const placed = await guest.request('POST', '/api/orders', validCheckout, nextAddress());
      const paid = await fetch(`${app.url}/api/admin/orders/${placed.body.id}?action=mark-paid`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: '{}',
      });
      const [grant] = (await paid.json()).downloads as { url: string; limit: number }[];
      expect(grant.limit).toBe(5);
      return async () => {
        const res = await fetch(grant.url);
        return res.status === 200 && (await res.arrayBuffer()).byteLength === bytes.length;
      };
    },
  },
  discountUses: {
    cap: () => 3,
    parallel: 12,
    setup: async () => {
      const created = await fetch(`${app.url}/api/admin/discounts`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ code: 'BURST3', type: 'percent', value: 10, usageLimit: 3 }),
      });
      expect(created.status).toBe(201);
      const product = await createProductRow(app.services.db, { stock: null });
      const guests = await guestsWithCart(12, product.id);
      return async (n) =>
        (
          await guests[n].request(
            'POST',
            '/api/orders',
            { ...validCheckout, customerEmail: `burst-${n}@example.com`, discountCode: 'BURST3' },
            nextAddress(),
          )
        ).status === 201;
    },
  },
};

it.each(Object.keys(LIMITS) as LimitName[])(
  '%s: a parallel burst beyond its cap is judged exactly cap times',
  async (name) => {
    const burst = bursts[name];
    expect(burst.parallel).toBeGreaterThan(burst.cap());
    const fire = await burst.setup();
    const answers = await Promise.all(Array.from({ length: burst.parallel }, (_, n) => fire(n)));
    // Exactly the cap: never more (the limit holds), and not fewer (it does not refuse everything).
    expect(answers.filter(Boolean).length).toBe(burst.cap());
  },
);
