import Router from '@koa/router';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouter } from '../../src/api/index.ts';
import { seedDemoContent } from '../../src/demo/seed.ts';
import { ensureAdmin } from '../../src/identity/admin.ts';
import { createSession } from '../../src/identity/sessions.ts';
import { type Endpoint, routerEndpoints } from '../support/api-endpoints.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { changedTables, fingerprint, isAppendOnly, watchedTables } from '../support/db-fingerprint.ts';
import { validCheckout } from '../support/shop.ts';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in.ts';
import { recordSummary } from './summary.ts';

type Who = 'anonymous' | 'user' | 'admin';

// No worker: a job finishing between the two snapshots would look like a change made by a refused request.
let app: TestApp;
let tables: string[];
const accounts: Partial<Record<Who, { userId: number; sid: string }>> = {};
let stripe: StripeStandIn;
beforeAll(async () => {
  // Card payments on, so the Stripe webhook and the payment steps of checkout are fuzzed too.
  stripe = await startStripeStandIn();
  app = await startTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_fuzz',
      STRIPE_WEBHOOK_SECRET: 'whsec_fuzz',
      STRIPE_API_URL: stripe.url,
    },
  });
  await ensureAdmin(app.services.db, undefined);
  await seedDemoContent(app.services.db);
  for (const role of ['user', 'admin'] as const) {
    const { user, sid } = await signedInSession(app, { role });
    accounts[role] = { userId: user.id, sid };
  }
  tables = await watchedTables(app.services.db, { appendOnly: true });
});
afterAll(async () => {
  await app?.close();
  await stripe?.close();
});

/** The account's session, opened again if a fuzzed sign-out or password change closed it. */
async function headersOf(who: Who): Promise<Record<string, string>> {
  const account = accounts[who];
  if (!account) return { origin: app.url };
  if (!(await app.services.db('sessions').where({ sid: account.sid }).first('sid')))
    account.sid = await createSession(app.services.db, account.userId);
  return { cookie: `sid=${account.sid}`, origin: app.url };
}

// ---- Hostile values -------------------------------------------------------------------------

const HUGE = 'x'.repeat(200_000);
const hugeNumbers = fc.constantFrom(
  -1,
  -0,
  0,
  0.5,
  -(2 ** 31),
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
  5e-324,
);
const numbers = fc.oneof(hugeNumbers, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const unicode = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u202Eevil\u202C',
    '\uD800',
    '\uDFFF lone',
    '\uFEFFbom',
    'e\u0301\u0301\u0301',
    '𝕳𝖊𝖑𝖑𝖔 👩‍👩‍👧‍👦',
    '\u200B\u200C\u200D',
    'ﷺ'.repeat(500),
    'İıßẞǅ',
  ),
);
const strings = fc.oneof(
  fc.string(),
  unicode,
  fc.constantFrom(
    '',
    ' ',
    '\t\n',
    HUGE,
    '\u0000',
    'a\u0000b',
    "' OR 1=1 --",
    '"; DROP TABLE posts; --',
    '%_\\$1',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '/uploads/../../x',
    'javascript:alert(1)',
    'NaN',
    'Infinity',
    '1e309',
    '-1',
    '0x10',
    '9'.repeat(40),
    'null',
    'true',
    '__proto__',
  ),
);
/** A value of any JSON type: each field is also tried with the types it does not expect. */
const wrongTyped = fc.oneof(
  strings,
  numbers,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(strings, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), strings, { maxKeys: 3 }),
);

// ---- Requests -------------------------------------------------------------------------------

const ACTIONS = [
  'add',
  'clear',
  'count',
  'items',
  'me',
  'login',
  'logout',
  'change-password',
  'confirm',
  'resend',
  'forgot',
  'reset',
  'moderate',
  'like',
  'all',
  'pending',
  'export',
  'categories',
  'tags',
  'featured',
  'my-orders',
  'create-checkout',
  'stats',
  'analytics',
  'recent-activity',
  'mark-paid',
  'refund',
  'cancel',
  'login-2fa',
  '2fa-setup',
  '2fa-enable',
  '2fa-disable',
];
const queryKey = fc.constantFrom(
  'action',
  'id',
  'page',
  'limit',
  'status',
  'category',
  'search',
  'postId',
  'slug',
  'tag',
  'before',
  'q',
  'approved',
  'paymentStatus',
  'from',
  'to',
  'unknown',
  '__proto__',
);
/** Sent as they are, not encoded again: broken percent-encoding and invalid UTF-8. */
const RAW_URL_PARTS = new Set([
  '%ED%A0%80',
  '%FF',
  '%C0%AF',
  '%E0%80',
  '%',
  '%%',
  '%zz',
  '%00',
  'a%2',
  '%u0041',
]);
const rawUrlPart = fc.constantFrom(...RAW_URL_PARTS);
const encode = (v: string) => (RAW_URL_PARTS.has(v) ? v : encodeURIComponent(v.toWellFormed()));
// The whole URL must stay under Node's 16 KB header limit, or the answer is Node's own 431.
const queryValue = fc
  .oneof(fc.constantFrom(...ACTIONS), strings, numbers.map(String))
  .map((v) => v.slice(0, 1_500));
/** Query pairs, often with one key repeated (?id=1&id=2 has no single meaning). */
const query = fc
  .tuple(fc.array(fc.tuple(queryKey, queryValue), { maxLength: 5 }), fc.boolean(), queryValue)
  .map(([pairs, repeat, again]) => (repeat && pairs[0] ? [...pairs, [pairs[0][0], again] as const] : pairs));

/** A plausible body per resource: hostile variants start from it, so validation past the first field is reached. */
const PLAUSIBLE: Record<string, Record<string, unknown>> = {
  '/api/users': {
    username: 'fuzz_user',
    email: 'fuzz@example.com',
    password: 'Str0ng!pass',
    code: '123456',
    currentPassword: 'Str0ng!pass',
    newPassword: 'N3w!passWord',
  },
  '/api/comments': {
    postId: 1,
    author: 'Fuzz',
    email: 'fuzz@example.com',
    content: 'A comment',
    approved: true,
  },
  '/api/newsletter': { email: 'fuzz@example.com' },
  '/api/posts': {
    title: 'Fuzzed',
    content: 'Body',
    excerpt: 'Excerpt',
    category: 'Technology',
    tags: ['a'],
    status: 'draft',
  },
  '/api/settings': {
    title: 'Penstand',
    description: 'About',
    authorName: 'Ada',
    authorBio: 'Bio',
    socialLinks: { youtube: '', github: '', twitter: '', linkedin: '' },
  },
  '/api/products': {
    name: 'Fuzzed',
    description: 'D',
    category: 'Books',
    price: 100,
    stock: 1,
    image: '/uploads/fuzzed.png',
  },
  '/api/cart': { productId: 1, quantity: 1 },
  '/api/orders': validCheckout,
  '/api/admin/orders': { amount: 100, restock: true, reference: 'BT-1', reason: 'fuzz' },
  '/api/admin/discounts': {
    code: 'FUZZ10',
    type: 'percent',
    value: 10,
    usageLimit: 5,
    perEmailLimit: 1,
    startsAt: '2026-01-01T00:00:00Z',
    endsAt: '2099-01-01T00:00:00Z',
    minSubtotal: 100,
    productIds: [1],
    categories: ['Books'],
    active: true,
  },
  // Shaped like a Stripe event; without a valid signature it must change nothing.
  '/api/payments/stripe/webhook': {
    id: 'evt_fuzz',
    object: 'event',
    type: 'checkout.session.completed',
    data: { object: { client_reference_id: '1', payment_status: 'paid', amount_total: 1 } },
  },
};
function plausibleBody(path: string): Record<string, unknown> {
  const resource = path.replace(/\/(add|items|:id)$/, '');
  return PLAUSIBLE[resource] ?? {};
}

/** The plausible body with fields removed, retyped, oversized and added. */
function mutatedObject(base: Record<string, unknown>) {
  const keys = Object.keys(base);
  return fc
    .record({
      drop: fc.subarray(keys),
      retype: fc.dictionary(keys.length ? fc.constantFrom(...keys) : fc.constant('title'), wrongTyped, {
        maxKeys: 3,
      }),
      extra: fc.dictionary(
        fc.constantFrom('id', 'role', 'userId', 'approved', 'admin', 'constructor', 'extra', 'createdAt'),
        wrongTyped,
        { maxKeys: 3 },
      ),
    })
    .map(({ drop, retype, extra }) => {
      const out: Record<string, unknown> = { ...base, ...retype, ...extra };
      for (const key of drop) delete out[key];
      return out;
    });
}

type Body = { type: string | null; data: string | Buffer };
const json = (value: unknown): Body => ({ type: 'application/json', data: JSON.stringify(value) ?? 'null' });
const DEEP_JSON = `${'{"a":['.repeat(20_000)}1${']}'.repeat(20_000)}`;
const malformedJson = fc.constantFrom(
  '{',
  '{"a":',
  '[1,2',
  'not json',
  "{'single': 'quotes'}",
  '{"a":1}}',
  '{"a":NaN}',
  '{"price":1e400}',
  '{"quantity":-1e400}',
  '\uFEFF{"a":1}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"admin":true}}',
  DEEP_JSON,
  `[${'['.repeat(5_000)}`,
);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function multipart(
  boundary: string,
  parts: { headers: string; content: string | Uint8Array }[],
  close: boolean,
) {
  const chunks: Uint8Array[] = [];
  const text = (s: string) => chunks.push(new TextEncoder().encode(s));
  for (const part of parts) {
    text(`--${boundary}\r\n${part.headers}\r\n\r\n`);
    chunks.push(typeof part.content === 'string' ? new TextEncoder().encode(part.content) : part.content);
    text('\r\n');
  }
  if (close) text(`--${boundary}--\r\n`);
  return Buffer.concat(chunks);
}
/** Multipart bodies that are broken in every way a parser can be surprised by. */
const malformedMultipart: fc.Arbitrary<Body> = fc
  .record({
    declared: fc.constantFrom('zzz', 'other', '', '"quoted"', 'x'.repeat(100)),
    used: fc.constantFrom('zzz', 'other'),
    field: fc.constantFrom('file', 'files', 'FILE', '', 'file"; name="x'),
    filename: fc.oneof(
      fc.constantFrom('a.png', '../../etc/passwd', '', 'a.png\u0000.php', 'ü.png', 'x'.repeat(1_000)),
      unicode,
    ),
    content: fc.oneof(
      fc.constantFrom('not an image', '', 'GIF89a' as string),
      fc.uint8Array({ maxLength: 64 }),
      fc.uint8Array({ maxLength: 64 }).map((rest) => Buffer.concat([PNG, rest])),
    ),
    extraParts: fc.nat(3),
    close: fc.boolean(),
    withFile: fc.boolean(),
  })
  .map(({ declared, used, field, filename, content, extraParts, close, withFile }) => {
    const parts: { headers: string; content: string | Uint8Array }[] = Array.from(
      { length: extraParts },
      (_, i) => ({
        headers: `Content-Disposition: form-data; name="field${i}"`,
        content: 'value',
      }),
    );
    if (withFile)
      parts.push({
        headers: `Content-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/png`,
        content,
      });
    return {
      type: declared ? `multipart/form-data; boundary=${declared}` : 'multipart/form-data',
      data: multipart(used, parts, close),
    };
  });

function bodies(path: string): fc.Arbitrary<Body> {
  const upload = path.includes('upload');
  return fc.oneof(
    { weight: upload ? 1 : 6, arbitrary: mutatedObject(plausibleBody(path)).map(json) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json) },
    { weight: 1, arbitrary: wrongTyped.map(json) },
    { weight: 2, arbitrary: malformedJson.map((data) => ({ type: 'application/json', data })) },
    {
      weight: 1,
      arbitrary: fc.constant({ type: 'application/json', data: `{"title":"${'y'.repeat(600_000)}"}` }),
    },
    { weight: upload ? 6 : 1, arbitrary: malformedMultipart },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string().map((data) => ({ type: 'application/x-www-form-urlencoded', data })),
        fc.string().map((data) => ({ type: 'text/plain', data })),
        fc.string().map((data) => ({ type: null, data })),
      ),
    },
  );
}

const pathValue = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '999999999',
    '99999999999999999999',
    '1.5',
    '1e3',
    ' 1',
    '..',
    '%2F',
    'null',
  ),
  rawUrlPart,
  strings.map((s) => s.slice(0, 200)),
);

type Outcome = { status: number; line: string };

async function send(
  endpoint: Endpoint,
  who: Who,
  pairs: readonly (readonly [string, string])[],
  param: string,
  body: Body,
): Promise<{ status: number; contentType: string; text: string; url: string }> {
  const search = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  const path = endpoint.path.replace(/:(\w+)/g, () => encode(param));
  const url = `${path}${search ? `?${search}` : ''}`;
  const headers = await headersOf(who);
  const init: RequestInit = { method: endpoint.method, headers };
  if (endpoint.method !== 'GET') {
    init.body = typeof body.data === 'string' ? body.data : new Uint8Array(body.data);
    if (body.type) headers['content-type'] = body.type;
  }
  try {
    const res = await fetch(`${app.url}${url}`, init);
    return {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      text: await res.text(),
      url,
    };
  } catch (error) {
    throw new Error(
      `${who} ${endpoint.method} ${url.slice(0, 300)}: no answer (${(error as Error).cause ?? error})`,
    );
  }
}

/** Each sent in every field of every plausible body, the other fields left as they are. */
const ODD_FIELD_VALUES: Record<string, string> = {
  nul: 'a\u0000b',
  newline: 'a\r\nb',
  'non-Latin-1': '/shop?q=日本',
  'over-long': HUGE,
};

/** Bodies signed with the webhook secret that are no Stripe event. */
const NOT_EVENTS = [
  '{"id":"evt_fuzz_no_data","object":"event","type":"checkout.session.completed"}',
  '{"id":"evt_fuzz_null","object":"event","type":"checkout.session.completed","data":null}',
  '[{"id":"evt_fuzz_array","type":"checkout.session.completed"}]',
];

describe('API fuzzing', () => {
  it('derives its endpoint list from the router, so a new endpoint is fuzzed without being listed', () => {
    const list = routerEndpoints(apiRouter(app.services)).map((e) => `${e.method} ${e.path}`);
    expect(list).toContain('POST /api/uploads');
    expect(list).toContain('PUT /api/products/:id');
    const extended = apiRouter(app.services);
    const added = new Router();
    added.patch('/fuzz-probe', (ctx) => {
      ctx.body = {};
    });
    extended.use(added.routes());
    expect(routerEndpoints(extended).map((e) => `${e.method} ${e.path}`)).toContain('PATCH /api/fuzz-probe');
  });

  it('answers hostile input on every endpoint with a 4xx and a message, never a 5xx, and changes nothing when it refuses', async () => {
    const list = routerEndpoints(apiRouter(app.services));
    expect(list.length).toBeGreaterThanOrEqual(33);
    const outcomes: Outcome[] = [];
    const problems: string[] = [];
    try {
      for (const endpoint of list) {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom<Who>('anonymous', 'user', 'admin'),
            query,
            pathValue,
            bodies(endpoint.path),
            async (who, pairs, param, body) => {
              const before = await fingerprint(app.services.db, tables);
              const res = await send(endpoint, who, pairs, param, body);
              const line = `${who} ${endpoint.method} ${res.url.slice(0, 300)} → ${res.status}`;
              outcomes.push({ status: res.status, line });
              if (res.status >= 500) problems.push(`${line} ${res.text.slice(0, 200)}`);
              expect(res.status, line).toBeLessThan(500);
              const changed = changedTables(before, await fingerprint(app.services.db, tables, before));
              // Accepted or refused, no request rewrites or removes an audit log entry.
              expect(changed.filter(isAppendOnly), `${line}: audit log only added to`).toEqual([]);
              if (res.status < 400) return;
              let message: unknown;
              try {
                message = (JSON.parse(res.text) as { message?: unknown }).message;
              } catch {
                message = undefined;
              }
              expect(res.contentType, `${line}: JSON answer`).toContain('application/json');
              expect(typeof message === 'string' && message.trim().length > 0, `${line}: has a message`).toBe(
                true,
              );
              expect(changed, `${line}: left the data alone`).toEqual([]);
            },
          ),
          {
            numRuns: Number(process.env.FUZZ_RUNS ?? 40),
            seed: Number(process.env.FUZZ_SEED ?? 20261123),
            endOnFailure: true,
          },
        );
      }
    } finally {
      const serverErrors = outcomes.filter((o) => o.status >= 500).length;
      await recordSummary({ endpointsFuzzed: list.length, requestsSent: outcomes.length, serverErrors });
    }
    expect(problems).toEqual([]);
    // The fuzzing reached past the door: some requests were refused by validation, some accepted.
    expect(outcomes.some((o) => o.status === 400)).toBe(true);
    expect(outcomes.some((o) => o.status < 300)).toBe(true);
  });

  // Last: what it stores (200 KB strings among them) would slow the fingerprints of the test above.
  it('answers NUL with a 4xx, and newlines, non-Latin-1 and over-long values without a 5xx, in every JSON field of every endpoint', async () => {
    const problems: string[] = [];
    let sent = 0;
    const judge = (line: string, kind: string, res: { status: number; text: string }) => {
      sent++;
      if (res.status >= 500) problems.push(`${line} → ${res.status} ${res.text.slice(0, 200)}`);
      if (kind === 'nul' && res.status < 400 && !line.includes(' DELETE '))
        problems.push(`${line} → ${res.status}: NUL accepted`);
    };
    const withBody = routerEndpoints(apiRouter(app.services)).filter((e) => e.method !== 'GET');
    for (const endpoint of withBody) {
      const base = plausibleBody(endpoint.path);
      const fields = Object.keys(base);
      if (fields.length === 0) continue;
      // Each action the endpoint tells apart (its plausible body answered differently), so every
      // field reaches the validation that reads it, without sweeping an action it ignores again.
      const answers = new Set<string>();
      for (const action of [null, ...ACTIONS]) {
        const pairs = action ? [['action', action] as const] : [];
        const probe = await send(endpoint, 'admin', pairs, '1', json(base));
        judge(`admin ${endpoint.method} ${probe.url.slice(0, 100)} plausible`, 'plausible', probe);
        const answer = `${probe.status} ${probe.text.replace(/\d+/g, '#').slice(0, 300)}`;
        if (/unknown action/i.test(probe.text) || answers.has(answer)) continue;
        answers.add(answer);
        for (const field of fields)
          for (const [kind, value] of Object.entries(ODD_FIELD_VALUES)) {
            const res = await send(endpoint, 'admin', pairs, '1', json({ ...base, [field]: value }));
            judge(`admin ${endpoint.method} ${res.url.slice(0, 100)} ${field}=${kind}`, kind, res);
          }
      }
    }
    for (const payload of NOT_EVENTS) {
      const res = await fetch(`${app.url}/api/payments/stripe/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': stripe.signed(payload).signature('whsec_fuzz'),
        },
        body: payload,
      });
      judge(`signed webhook ${payload}`, 'not-an-event', { status: res.status, text: await res.text() });
      if (res.status !== 400) problems.push(`signed webhook ${payload} → ${res.status}: expected 400`);
    }
    await recordSummary({
      requestsSent: sent,
      serverErrors: problems.filter((p) => / → 5\d\d/.test(p)).length,
    });
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(500);
  });
});
