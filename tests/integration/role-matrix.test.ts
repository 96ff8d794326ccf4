import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouter } from '../../src/api/index.ts';
import routes from '../../src/app/routes.ts';
import { type Access, API_ACCESS, PAGE_ACCESS } from '../support/access-table.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';

let app: TestApp;
const as: Record<'anonymous' | 'user' | 'admin', Record<string, string>> = {
  anonymous: {},
  user: {},
  admin: {},
};
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
  as.user = (await signedInSession(app, { role: 'user' })).headers;
  as.admin = (await signedInSession(app, { role: 'admin' })).headers;
});
afterAll(() => app?.close());

describe('every route is in the access table', () => {
  it('lists every API endpoint of the router', () => {
    const listed = new Set(API_ACCESS.map((r) => `${r.method} ${r.path}`));
    const missing: string[] = [];
    for (const layer of apiRouter(app.services).stack) {
      const path = String(layer.path);
      if (path.includes('{*')) continue;
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        if (!listed.has(`${method} ${path}`)) missing.push(`${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists every page route', () => {
    const listed = new Set(PAGE_ACCESS.map((r) => r.path));
    const paths = routes.map((r: { path?: string; index?: boolean }) => (r.index ? '/' : `/${r.path}`));
    expect(paths.filter((p) => !listed.has(p))).toEqual([]);
  });
});

/** Whether a response let the visitor in: 401/403 and the sign-in redirect mean refused. */
function refused(status: number, location: string | null): boolean {
  return (
    status === 401 ||
    status === 403 ||
    ((status === 302 || status === 303) && (location ?? '').startsWith('/login'))
  );
}

function expected(access: Access, who: 'anonymous' | 'user' | 'admin'): boolean {
  if (access === 'public') return true;
  if (access === 'user') return who !== 'anonymous';
  return who === 'admin';
}

describe('answers as anonymous, user and admin', () => {
  it.each(API_ACCESS.map((row) => [`${row.method} ${row.sample ?? row.path}`, row] as const))(
    '%s',
    async (_, row) => {
      for (const who of ['anonymous', 'user', 'admin'] as const) {
        const res = await fetch(`${app.url}${row.sample ?? row.path}`, {
          method: row.method,
          redirect: 'manual',
          headers: { ...as[who], ...(row.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
          body: row.method === 'GET' ? undefined : '{}',
        });
        await res.arrayBuffer();
        expect(res.status, `${who}: ${row.method} ${row.sample ?? row.path}`).toBeLessThan(500);
        expect(
          refused(res.status, res.headers.get('location')),
          `${who}: ${row.method} ${row.sample ?? row.path} → ${res.status}`,
        ).toBe(!expected(row.access, who));
        if (!expected(row.access, who)) expect(res.status).toBe(who === 'anonymous' ? 401 : 403);
      }
    },
  );

  it.each(PAGE_ACCESS.map((row) => [row.sample ?? row.path, row] as const))('page %s', async (url, row) => {
    for (const who of ['anonymous', 'user', 'admin'] as const) {
      const res = await fetch(`${app.url}${url}`, { redirect: 'manual', headers: as[who] });
      await res.arrayBuffer();
      expect(res.status, `${who}: ${url}`).toBeLessThan(500);
      expect(refused(res.status, res.headers.get('location')), `${who}: ${url} → ${res.status}`).toBe(
        !expected(row.access, who),
      );
      if (row.access === 'admin' && who === 'anonymous') {
        expect(res.headers.get('location')).toBe(`/login?redirectTo=${encodeURIComponent(url)}`);
      }
    }
  });
});
