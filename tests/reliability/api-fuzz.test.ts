import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiRouter } from '../../src/api/index.ts';
import { seedDemoContent } from '../../src/db/seed.ts';
import { ensureAdmin } from '../../src/identity/admin.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { recordSummary } from './summary.ts';

let app: TestApp;
const sessions: Record<string, Record<string, string>> = {};
beforeAll(async () => {
  app = await startTestApp({ withWorker: true });
  await ensureAdmin(app.services.db, undefined);
  await seedDemoContent(app.services.db);
  sessions.anonymous = {};
  sessions.user = (await signedInSession(app, { role: 'user' })).headers;
  sessions.admin = (await signedInSession(app, { role: 'admin' })).headers;
});
afterAll(() => app?.close());

type Endpoint = { method: string; path: string };

/** Every endpoint, read from the router itself: a new endpoint is fuzzed without anyone listing it. */
function endpoints(): Endpoint[] {
  const router = apiRouter(app.services);
  const seen = new Set<string>();
  const list: Endpoint[] = [];
  for (const layer of router.stack) {
    const path = String(layer.path);
    if (!path.startsWith('/api') || path.includes('{*')) continue;
    for (const method of layer.methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const key = `${method} ${path}`;
      if (!seen.has(key)) list.push({ method, path });
      seen.add(key);
    }
  }
  return list;
}

/** Tables whose rows a rejected request must leave untouched (sessions and rate counters may move). */
async function fingerprint(): Promise<string> {
  const { rows } = await app.services.db.raw(`
    SELECT string_agg(t.relname || '=' || t.n, ',' ORDER BY t.relname) AS f FROM (
      SELECT c.relname, (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I', c.relname), false, true, '')))[1]::text AS n
      FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
      WHERE s.nspname = 'public' AND c.relkind = 'r' AND c.relname NOT LIKE 'knex%'
        AND c.relname NOT IN ('sessions', 'app_meta') AND c.relname NOT LIKE '%rate%'
    ) t`);
  return rows[0].f;
}

const huge = 'x'.repeat(200_000);
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '0',
    '1e309',
    '9999999999999999999999',
    'NaN',
    'null',
    'true',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '\u0000',
    huge,
  ),
  fc.integer().map(String),
  fc.double().map(String),
);
const queryKeys = fc.constantFrom(
  'action',
  'id',
  'page',
  'limit',
  'status',
  'category',
  'search',
  'postId',
  'slug',
  'q',
  'approved',
  'unknown',
);
const query = fc.array(fc.tuple(queryKeys, nasty), { maxLength: 6 });

/** JSON nested far deeper than any form: built as text, as an attacker would send it. */
const deepJson = `${'{"a":['.repeat(20_000)}1${']}'.repeat(20_000)}`;
const jsonValue = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom(
      'title',
      'content',
      'email',
      'password',
      'username',
      'productId',
      'quantity',
      'price',
      'approved',
      'postId',
      'author',
      'customerName',
      'customerEmail',
      'address',
      'city',
      'zipCode',
      'country',
      'code',
      'extra',
    ),
    fc.oneof(fc.jsonValue(), nasty),
  ),
);
const body = fc.oneof(
  jsonValue.map((v) => ({ type: 'application/json', data: JSON.stringify(v) ?? 'null' })),
  fc
    .constantFrom('{', '{"a":', '[1,2', 'not json', '\u0000', `{"title":"${huge}"}`, deepJson)
    .map((data) => ({ type: 'application/json', data })),
  fc.string().map((data) => ({ type: 'application/x-www-form-urlencoded', data })),
  fc.constant({
    type: 'multipart/form-data; boundary=zzz',
    data: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nnot really\r\n--zzz',
  }),
  fc.constant({ type: 'multipart/form-data', data: 'garbage without boundary' }),
);

it('answers hostile input on every endpoint with a 4xx and a message, never a 5xx, and changes nothing when it refuses', async () => {
  const list = endpoints();
  expect(list.length).toBeGreaterThan(0);
  let sent = 0;
  const serverErrors: string[] = [];
  for (const endpoint of list) {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('anonymous', 'user', 'admin'),
        query,
        body,
        async (who, params, payload) => {
          const search = new URLSearchParams(params.map(([k, v]) => [k, v.slice(0, 5_000)]));
          const path = endpoint.path.replace(/:(\w+)/g, () =>
            encodeURIComponent(params[0]?.[1]?.slice(0, 50) ?? '1'),
          );
          const before = await fingerprint();
          const init: RequestInit = { method: endpoint.method, headers: { ...sessions[who] } };
          if (endpoint.method !== 'GET') {
            init.body = payload.data;
            (init.headers as Record<string, string>)['content-type'] = payload.type;
          }
          const res = await fetch(`${app.url}${path}?${search}`, init);
          sent++;
          const text = await res.text();
          if (res.status >= 500)
            serverErrors.push(`${endpoint.method} ${path}?${search} → ${res.status} ${text.slice(0, 200)}`);
          expect(res.status, `${endpoint.method} ${path}`).toBeLessThan(500);
          if (
            res.status >= 400 &&
            res.status !== 404 &&
            (res.headers.get('content-type') ?? '').includes('json')
          ) {
            const message = (JSON.parse(text) as { message?: unknown }).message;
            expect(
              typeof message === 'string' && message.length > 0,
              `${endpoint.method} ${path} ${res.status} has a message`,
            ).toBe(true);
          }
          if (res.status >= 400)
            expect(await fingerprint(), `${endpoint.method} ${path} ${res.status} left data alone`).toBe(
              before,
            );
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 25), seed: Number(process.env.FUZZ_SEED ?? 20261122) },
    );
  }
  await recordSummary({
    endpointsFuzzed: list.length,
    requestsSent: sent,
    serverErrors: serverErrors.length,
  });
  expect(serverErrors).toEqual([]);
});
