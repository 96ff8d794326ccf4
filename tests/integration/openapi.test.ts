import http from 'node:http';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouter } from '../../src/api/index.ts';
import { type OpenApiDocument, openApiDocument } from '../../src/api/openapi.ts';
import { API_ACCESS } from '../support/access-table.ts';
import { routerEndpoints } from '../support/api-endpoints.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { seedDemo } from '../support/blog.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';

type Action = { action: string | null; role: string; responses: Record<string, { $ref?: string }> };
type Operation = {
  'x-role': string;
  'x-admin-when'?: { param: string };
  'x-actions'?: (Action & { adminWhen?: { param: string } })[];
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};

let app: TestApp;
let served: OpenApiDocument;
beforeAll(async () => {
  app = await startTestApp();
  await seedDemo(app);
  served = await (await fetch(`${app.url}/api/openapi.json`)).json();
});
afterAll(() => app?.close());

/** A copy for the validator, which types OpenAPI with other declarations than the generator. */
const parserInput = (document: OpenApiDocument) =>
  structuredClone(document) as unknown as Parameters<typeof validate>[0];

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function operation(method: string, path: string): Operation | undefined {
  const paths = served.paths as Record<string, Record<string, Operation>>;
  return paths[toOpenApiPath(path)]?.[method.toLowerCase()];
}

describe('GET /api/openapi.json', () => {
  it('serves the document to anyone, cacheable and revalidated by its ETag', async () => {
    const res = await fetch(`${app.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    // node:http, not fetch: fetch adds Cache-Control: no-cache to conditional requests.
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${app.url}/api/openapi.json`, { headers: { 'if-none-match': etag } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(304);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(served.openapi).toBe('3.1.0');
    const result = await validate(parserInput(served));
    expect(result.valid ? [] : result.errors).toEqual([]);
    // The validator does refuse a broken one: a reference to a schema that is not there.
    const { ApiError: _, ...schemas } = served.components?.schemas ?? {};
    expect((await validate(parserInput({ ...served, components: { schemas } }))).valid).toBe(false);
  });
});

describe('the document covers the API', () => {
  it('describes every method and path the API router answers, and no other', () => {
    const routes = routerEndpoints(apiRouter(app.services)).map(
      (e) => `${e.method} ${toOpenApiPath(e.path)}`,
    );
    const described = Object.entries(served.paths ?? {}).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes.filter((r) => !described.includes(r))).toEqual([]);
    expect(described.filter((d) => !routes.includes(d))).toEqual([]);
  });

  it('describes every row of the access table, ?action= included, with the role the role matrix checks', () => {
    const wrong: string[] = [];
    for (const row of API_ACCESS) {
      const line = `${row.method} ${row.sample ?? row.path}`;
      const op = operation(row.method, row.path);
      const query = new URL(row.sample ?? row.path, 'http://x').searchParams;
      const action = query.get('action');
      const entry = op?.['x-actions']
        ? op['x-actions'].find((a) => a.action === action)
        : action === null
          ? op && { role: op['x-role'], adminWhen: op['x-admin-when'] }
          : undefined;
      if (!entry) {
        wrong.push(`${line}: not described`);
        continue;
      }
      const role = row.access === 'owner' ? 'public' : row.access;
      // A public read some of whose parameters are for admins (?status=draft) is described once.
      const raised = entry.adminWhen && query.has(entry.adminWhen.param) && role === 'admin';
      if (entry.role !== role && !raised) wrong.push(`${line}: described as ${entry.role}, is ${role}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('real answers match their declared schemas', () => {
  const ajv = () => {
    const instance = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    instance.addSchema({ components: served.components }, 'api');
    return instance;
  };

  /** The JSON schema the document declares for an answer (of one action, when the route has them). */
  function declared(method: string, path: string, status: number, action?: string): object {
    const op = operation(method, path);
    const entry = op?.['x-actions']?.find((a) => a.action === (action ?? null));
    const ref = entry?.responses[status]?.$ref;
    const schema = ref ? { $ref: ref } : op?.responses[status]?.content?.['application/json']?.schema;
    expect(schema, `${method} ${path} ${status}`).toBeDefined();
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"api#/components/'));
  }

  async function expectMatches(
    method: string,
    path: string,
    status: number,
    url: string,
    init?: RequestInit,
  ) {
    const res = await fetch(`${app.url}${url}`, init);
    expect(res.status, url).toBe(status);
    const body = await res.json();
    const action = new URL(url, app.url).searchParams.get('action') ?? undefined;
    const check = ajv().compile(declared(method, path, status, action));
    expect(check(body) ? [] : check.errors, url).toEqual([]);
    return body;
  }

  it('lists, posts, products, comments and health as declared', async () => {
    const list = await expectMatches('GET', '/api/posts', 200, '/api/posts?limit=3');
    expect(list.posts.length).toBeGreaterThan(0);
    await expectMatches('GET', '/api/posts', 200, `/api/posts?id=${list.posts[0].id}`);
    await expectMatches('GET', '/api/comments', 200, `/api/comments?postId=${list.posts[0].id}`);
    await expectMatches('GET', '/api/products', 200, '/api/products');
    await expectMatches('GET', '/api/health', 200, '/api/health');
  });

  it('a guest’s cart answers as declared', async () => {
    const { id } = await createProductRow(app.services.db, { stock: 5 });
    const guest = new GuestClient(app);
    const added = await guest.add(id, 2);
    expect(added.status).toBe(201);
    const check = ajv().compile(declared('POST', '/api/cart', 201, 'add'));
    expect(check(added.body) ? [] : check.errors).toEqual([]);
    const headers = { 'x-session-id': guest.sid ?? '' };
    const cart = await expectMatches('GET', '/api/cart', 200, '/api/cart', { headers });
    expect(cart.cart.items).toHaveLength(1);
  });

  it('refusals are the declared ApiError, and the schemas do refuse what they do not describe', async () => {
    const bad = await expectMatches('GET', '/api/posts', 400, '/api/posts?limit=0');
    expect(bad).toEqual({ message: 'limit must be a number from 1 to 100' });
    const noQuantity = await expectMatches('PUT', '/api/cart', 400, '/api/cart?id=1', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noQuantity).toEqual({ message: 'quantity is required' });
    await expectMatches('GET', '/api/users', 401, '/api/users?action=me');
    const postList = ajv().compile(declared('GET', '/api/posts', 200));
    expect(postList({ posts: [{ id: 'one' }] })).toBe(false);
    expect(ajv().compile(declared('GET', '/api/posts', 400))({ error: 'no message' })).toBe(false);
  });
});
