import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import type { ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_TABS } from '../../src/app/admin/tabs.ts';
import { seedDemoContent } from '../../src/demo/seed.ts';
import { createSession } from '../../src/identity/sessions.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, signedInSession } from '../support/auth.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { changedTables, fingerprint, watchedTables } from '../support/db-fingerprint.ts';
import { type RunningProcess, startWebProcess } from '../support/process.ts';
import { recordSummary } from './summary.ts';

type PageRoute = { pattern: string; hasAction: boolean };

/** Every page route of the production build, with whether it has a form action. */
async function pageRoutes(): Promise<PageRoute[]> {
  const build: ServerBuild = await import(
    pathToFileURL(path.join(inject('buildDir'), 'server/index.js')).href
  );
  return Object.values(build.routes)
    .filter((route) => route && route.id !== 'root')
    .map((route) => ({
      pattern: `/${route?.path ?? ''}`,
      hasAction: typeof route?.module.action === 'function',
    }));
}

/** A concrete path for a route pattern: real records of the demo content where it has them. */
function concretePath(pattern: string, ids: Record<string, string>): string {
  if (pattern === '/*') return '/no-such-page';
  return pattern.replace(/:(\w+)/g, (_, name: string) => ids[`${pattern}:${name}`] ?? ids[name] ?? '1');
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** A request by node:http: fetch refuses TRACE and would not let a body go out unfinished. */
function request(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${url}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * POSTs `megabytes` of form data, streamed from one reused 64 KB chunk (the test never holds the
 * body), and resolves with the status as soon as the answer comes, cutting the upload short.
 */
function postHuge(base: string, url: string, megabytes: number, chunked: boolean): Promise<number> {
  const total = megabytes * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 'a');
  chunk.write('customerName=');
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      origin: base,
    };
    if (!chunked) headers['content-length'] = String(total);
    const req = http.request(`${base}${url}`, { method: 'POST', headers });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (error) => {
      if (!answered) reject(new Error(`POST ${url}: no answer (${error.message})`));
    });
    let sent = 0;
    const pump = () => {
      while (sent < total && !answered) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

type PageForm = { method: 'get' | 'post'; action: string; fields: Record<string, string> };

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? new RegExp(`\\s${name}(?=[\\s>/])`).exec(tag)?.[0];

/** The forms of a rendered page with the values a browser would send (checked boxes, first options). */
function formsOf(html: string, pageUrl: string): PageForm[] {
  const forms: PageForm[] = [];
  for (const [, open, inner] of html.matchAll(/(<form\b[^>]*>)([\s\S]*?)<\/form>/g)) {
    const method = attribute(open, 'method')?.toLowerCase() === 'post' ? 'post' : 'get';
    const action = unescapeHtml(attribute(open, 'action') ?? pageUrl);
    if (!action.startsWith('/')) continue;
    const fields: Record<string, string> = {};
    for (const [tag] of inner.matchAll(/<input\b[^>]*>/g)) {
      const name = attribute(tag, 'name');
      const type = attribute(tag, 'type') ?? 'text';
      if (
        !name ||
        type === 'file' ||
        ((type === 'checkbox' || type === 'radio') && !attribute(tag, 'checked'))
      )
        continue;
      fields[unescapeHtml(name)] = unescapeHtml(attribute(tag, 'value') ?? '');
    }
    for (const [, tag, text] of inner.matchAll(/(<textarea\b[^>]*>)([\s\S]*?)<\/textarea>/g)) {
      const name = attribute(tag, 'name');
      if (name) fields[unescapeHtml(name)] = unescapeHtml(text);
    }
    for (const [, tag, options] of inner.matchAll(/(<select\b[^>]*>)([\s\S]*?)<\/select>/g)) {
      const name = attribute(tag, 'name');
      const first = /<option\b[^>]*value="([^"]*)"/.exec(options)?.[1];
      if (name) fields[unescapeHtml(name)] = unescapeHtml(first ?? '');
    }
    forms.push({ method, action, fields });
  }
  return forms;
}

/** Each sent in every field of every form, the others as the page filled them (a path first: some fields are paths). */
const ODD_FIELD_VALUES = {
  nul: '/a\u0000b',
  newline: '/a\r\nb',
  'non-Latin-1': '/shop?q=日本',
  'over-long': `/${'x'.repeat(20_000)}`,
};

async function rssMb(pid: number): Promise<number> {
  return Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

describe('huge form bodies', () => {
  let database: TestDatabase | undefined;
  let web: (RunningProcess & { url: string }) | undefined;
  afterAll(async () => {
    web?.child.kill('SIGKILL');
    await database?.drop();
  });

  it('answers 413 to 200 MB (and 10 concurrent 20 MB) on every form route, within 300 MB, and keeps serving', async () => {
    database = await createTestDatabase();
    web = await startWebProcess({
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
    });
    const base = web.url;
    const pid = web.child.pid ?? 0;
    const forms = (await pageRoutes()).filter((r) => r.hasAction).map((r) => concretePath(r.pattern, {}));
    expect(forms).toEqual(expect.arrayContaining(['/checkout', '/login', '/cart', '/post/1']));

    let peak = await rssMb(pid);
    const sampler = setInterval(() => {
      rssMb(pid).then(
        (mb) => {
          peak = Math.max(peak, mb);
        },
        () => {},
      );
    }, 50);
    try {
      for (const url of forms) {
        expect(await postHuge(base, url, 200, false), `${url} declared 200 MB`).toBe(413);
        expect(await postHuge(base, url, 200, true), `${url} streamed 200 MB`).toBe(413);
        const concurrent = await Promise.all(Array.from({ length: 10 }, () => postHuge(base, url, 20, true)));
        expect(concurrent, `${url} 10 × 20 MB`).toEqual(Array(10).fill(413));
      }
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, await rssMb(pid));
    expect(peak).toBeLessThan(300);
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(web.child.exitCode).toBeNull();
  });
});

describe('page route fuzzing', () => {
  let app: TestApp;
  let tables: string[];
  let adminCookie: string;
  let admin: { userId: number; sid: string };
  const ids: Record<string, string> = {};
  /** The headers of a visitor or the admin; the admin's session opened again when a fuzzed form closed it. */
  async function pageHeaders(who: 'anonymous' | 'admin'): Promise<Record<string, string>> {
    if (who === 'anonymous') return { origin: app.url };
    if (!(await app.services.db('sessions').where({ sid: admin.sid }).first('sid')))
      admin.sid = await createSession(app.services.db, admin.userId);
    return { origin: app.url, cookie: `sid=${admin.sid}` };
  }
  beforeAll(async () => {
    app = await startTestApp();
    await seedDemoContent(app.services.db);
    const signedIn = await signedInSession(app, { role: 'admin' });
    adminCookie = signedIn.cookie;
    admin = { userId: signedIn.user.id, sid: signedIn.sid };
    tables = await watchedTables(app.services.db);
    const post = await app.services.db('posts').where({ status: 'published' }).first('id', 'slug');
    const product = await app.services.db('products').first('id');
    ids['/post/:slug:slug'] = post.slug;
    ids['/admin/posts/:id:id'] = String(post.id);
    ids['/product/:id:id'] = String(product.id);
    ids['/admin/products/:id:id'] = String(product.id);
    // The admin's cart holds an item, so /checkout shows its form (an empty cart shows none).
    // A product of unlimited stock without variants (its stock row is the product's own, variant 0).
    const inStock = await app.services
      .db('products as p')
      .where('p.status', 'active')
      .whereRaw(
        'EXISTS (SELECT 1 FROM stock_levels s WHERE s.product_id = p.id AND s.variant_id = 0 AND s.stock IS NULL)',
      )
      .whereRaw('NOT EXISTS (SELECT 1 FROM product_variants v WHERE v.product_id = p.id)')
      .first('p.id');
    const added = await fetch(`${app.url}/api/cart?action=add`, {
      method: 'POST',
      headers: { ...(await pageHeaders('admin')), 'content-type': 'application/json' },
      body: JSON.stringify({ productId: inStock.id, quantity: 1 }),
    });
    expect(added.status).toBe(201);
  });
  afterAll(() => app?.close());

  const ODD_METHODS = ['TRACE', 'PUT', 'DELETE', 'PATCH', 'PROPFIND'];
  const WRONG_TYPES = ['application/json', 'text/plain', 'application/xml', 'application/octet-stream'];
  const formValue = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(
      '',
      '%zz',
      '%',
      'a%2',
      '%ED%A0%80',
      '\u0000',
      '<script>x</script>',
      '9'.repeat(40),
      'x'.repeat(70_000),
    ),
  );
  const formField = fc.constantFrom(
    'email',
    'username',
    'password',
    'content',
    'author',
    'customerName',
    'quantity',
    'productId',
    'intent',
    'code',
    'redirectTo',
    'title',
    'idempotencyKey',
    '__proto__',
  );
  /** Form-encoded bodies with hostile values, some not even valid percent-encoding. */
  const formBody = fc
    .array(fc.tuple(formField, formValue), { maxLength: 6 })
    .map((pairs) =>
      pairs.map(([k, v]) => `${k}=${v.startsWith('%') ? v : encodeURIComponent(v.toWellFormed())}`).join('&'),
    );
  const MALFORMED_MULTIPART: { type: string; body: string }[] = [
    {
      type: 'multipart/form-data',
      body: '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--zz--',
    },
    { type: 'multipart/form-data; boundary=zz', body: 'garbage' },
    {
      type: 'multipart/form-data; boundary=zz',
      body: '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
    },
    { type: 'multipart/form-data; boundary=other', body: '--zz\r\n\r\n--zz--\r\n' },
  ];

  it('answers odd methods, content types and bodies on every page route with a 4xx, never a 5xx, and changes nothing when it refuses', async () => {
    const routes = await pageRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(30);
    const problems: string[] = [];
    let sent = 0;
    const check = async (
      who: string,
      method: string,
      url: string,
      headers: Record<string, string>,
      body: string | undefined,
      expected?: number,
    ) => {
      const before = await fingerprint(app.services.db, tables);
      const res = await request(app.url, method, url, { origin: app.url, ...headers }, body);
      sent++;
      const line = `${who} ${method} ${url} ${headers['content-type'] ?? ''} → ${res.status}`;
      if (res.status >= 500) problems.push(`${line} ${res.text.slice(0, 200)}`);
      if (expected !== undefined && res.status !== expected) problems.push(`${line}: expected ${expected}`);
      if (res.status === 405 && !res.headers.allow) problems.push(`${line}: 405 without Allow`);
      if (res.status >= 400) {
        const changed = changedTables(before, await fingerprint(app.services.db, tables));
        if (changed.length) problems.push(`${line}: changed ${changed.join(', ')}`);
      }
    };
    for (const route of routes) {
      const url = concretePath(route.pattern, ids);
      for (const [who, cookie] of [
        ['anonymous', undefined],
        ['admin', adminCookie],
      ] as const) {
        const auth: Record<string, string> = cookie ? { cookie } : {};
        for (const method of ODD_METHODS) await check(who, method, url, auth, undefined, 405);
        await check(who, 'OPTIONS', url, auth, undefined, 204);
        if (!route.hasAction) continue;
        for (const type of WRONG_TYPES)
          await check(who, 'POST', url, { ...auth, 'content-type': type }, '{"email":"a@b.co"}', 415);
        await check(who, 'POST', url, auth, 'email=a%40b.co', 415);
        for (const { type, body } of MALFORMED_MULTIPART)
          await check(who, 'POST', url, { ...auth, 'content-type': type }, body, 400);
        for (const body of fc.sample(formBody, { numRuns: 8, seed: 20261124 }))
          await check(
            who,
            'POST',
            url,
            { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
            body,
          );
      }
    }
    await recordSummary({
      pageRoutesFuzzed: routes.length,
      requestsSent: sent,
      serverErrors: problems.filter((p) => / → 5\d\d/.test(p)).length,
    });
    expect(problems, problems.join('\n')).toEqual([]);
    const errors = app.logs.filter((entry) => Number(entry.level) >= 50);
    expect(errors.map((e) => e.msg)).toEqual([]);
  });

  it('answers NUL with a 400, and newlines, non-Latin-1 and over-long values without a 5xx, in every field of every form of every page', async () => {
    const routes = await pageRoutes();
    const forms = new Map<string, { who: 'anonymous' | 'admin'; form: PageForm }>();
    const pages = [
      ...routes.filter((r) => !r.pattern.includes('*')).map((r) => concretePath(r.pattern, ids)),
      ...ADMIN_TABS.map((tab) => `/admin?tab=${tab.id}`),
    ];
    for (const url of pages) {
      for (const who of ['anonymous', 'admin'] as const) {
        const res = await request(app.url, 'GET', url, await pageHeaders(who));
        for (const form of formsOf(res.text, url))
          forms.set(`${who} ${form.method} ${form.action} ${Object.keys(form.fields).join(',')}`, {
            who,
            form,
          });
      }
    }
    const actions = new Set([...forms.values()].map(({ form }) => form.action.split('?')[0]));
    // The forms of the shop, the reader and the admin are all reached.
    expect([...actions]).toEqual(expect.arrayContaining(['/cart/add', '/checkout', '/login', '/admin']));
    const problems: string[] = [];
    let sent = 0;
    for (const { who, form } of forms.values())
      for (const field of Object.keys(form.fields))
        for (const [kind, value] of Object.entries(ODD_FIELD_VALUES)) {
          const body = new URLSearchParams({ ...form.fields, [field]: value }).toString();
          const headers = await pageHeaders(who);
          const line = `${who} ${form.method.toUpperCase()} ${form.action} ${field}=${kind}`;
          const res = await (form.method === 'get'
            ? request(app.url, 'GET', `${form.action.split('?')[0]}?${body}`.slice(0, 8_000), headers)
            : request(
                app.url,
                'POST',
                form.action,
                { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
                body,
              )
          ).catch((error: Error) => ({ status: 0, text: error.message }));
          sent++;
          // No answer a client can read (a header over Node's 16 KB limit) counts as a failure too.
          if (res.status >= 500 || res.status === 0)
            problems.push(`${line} → ${res.status} ${res.text.slice(0, 200)}`);
          if (kind === 'nul' && form.method === 'post' && res.status !== 400)
            problems.push(`${line} → ${res.status}: expected 400`);
        }
    await recordSummary({
      requestsSent: sent,
      serverErrors: problems.filter((p) => / → (5\d\d|0) /.test(p)).length,
    });
    expect(problems, problems.join('\n')).toEqual([]);
    const errors = app.logs.filter((entry) => Number(entry.level) >= 50);
    expect(errors.map((e) => `${e.msg}: ${(e.err as { message?: string } | undefined)?.message}`)).toEqual(
      [],
    );
  });

  it('echoes a refused checkout value back no longer than the schema allows', async () => {
    const res = await request(
      app.url,
      'POST',
      '/checkout',
      { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ customerName: 'n'.repeat(60_000), customerEmail: 'bad' }).toString(),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('Please enter a valid email');
    expect(res.text).toContain('n'.repeat(200));
    expect(res.text).not.toContain('n'.repeat(201));
  });

  it('redirects to a path typed in any script after signing in', async () => {
    const user = await createUser(app);
    const res = await request(
      app.url,
      'POST',
      '/login',
      { origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ email: user.email, password: user.password, redirectTo: '/日本' }).toString(),
    );
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/%E6%97%A5%E6%9C%AC');
  });
});
