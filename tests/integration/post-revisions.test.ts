import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_MESSAGES } from '../../src/blog/post-messages.ts';
import { MAX_REVISIONS, unsavedDraft } from '../../src/blog/post-revisions.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  app = await startTestApp();
  admin = await signedInSession(app, { role: 'admin', firstName: 'Ada', lastName: 'Lovelace' });
});
afterAll(async () => {
  await app?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...admin.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: type.includes('json') ? await res.json() : await res.text() };
}

const post = {
  title: 'Versioned Post',
  content: 'The first words of the post.',
  excerpt: 'First excerpt',
  category: 'Technology',
  status: 'published',
};

async function revisionsOf(id: number) {
  const res = await call('GET', `/api/posts/${id}/revisions`);
  expect(res.status).toBe(200);
  return res.body.revisions as {
    id: number;
    kind: string;
    version: number;
    content: string;
    title: string;
  }[];
}

describe('post versions, autosave and revisions', () => {
  it('autosaves a draft copy that leaves the live post alone, and refuses stale versions', async () => {
    const created = await call('POST', '/api/posts', post);
    expect(created.status).toBe(201);
    const { id, version, slug } = created.body.post;
    expect(version).toBe(1);
    expect((await call('GET', `/api/posts?id=${id}`)).body.post.version).toBe(1);

    const cacheVersion = app.services.pageCache.currentVersion();
    const autosaved = await call('PUT', `/api/posts/${id}?action=autosave`, {
      ...post,
      content: 'Half-written second thoughts',
      excerpt: '',
      baseVersion: 1,
    });
    expect(autosaved.status).toBe(200);
    expect(autosaved.body).toMatchObject({ version: 2, savedAt: expect.any(String) });
    // The live post, and the pages readers are served, are unchanged until an explicit save.
    expect(app.services.pageCache.currentVersion()).toBe(cacheVersion);
    const live = await fetch(`${app.url}/api/posts?slug=${slug}`).then((r) => r.json());
    expect(live.post.content).toBe(post.content);
    expect(live.post.version).toBe(2);

    // Another tab still on version 1: refused, whether autosave or explicit save.
    const staleAutosave = await call('PUT', `/api/posts/${id}?action=autosave`, { ...post, baseVersion: 1 });
    expect(staleAutosave).toEqual({ status: 409, body: { message: POST_MESSAGES.changedElsewhere } });
    const staleSave = await call('PUT', `/api/posts?id=${id}`, {
      ...post,
      title: 'Other tab',
      baseVersion: 1,
    });
    expect(staleSave).toEqual({ status: 409, body: { message: POST_MESSAGES.changedElsewhere } });
    expect((await app.services.db('posts').where({ id }).first()).title).toBe(post.title);

    // A second autosave within 10 minutes rewrites the autosave revision instead of adding one.
    const again = await call('PUT', `/api/posts/${id}?action=autosave`, {
      ...post,
      content: 'Second thoughts, finished',
      baseVersion: 2,
    });
    expect(again.body.version).toBe(3);
    let revisions = await revisionsOf(id);
    expect(revisions.map((r) => [r.kind, r.version])).toEqual([
      ['autosave', 3],
      ['publish', 1],
    ]);
    expect(revisions[0].content).toBe('Second thoughts, finished');

    const saved = await call('PUT', `/api/posts?id=${id}`, {
      ...post,
      content: 'Second thoughts, finished',
      baseVersion: 3,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.post).toMatchObject({ version: 4, content: 'Second thoughts, finished' });
    revisions = await revisionsOf(id);
    expect(revisions.map((r) => r.kind)).toEqual(['publish', 'autosave', 'publish']);
  });

  it('restores an earlier revision as a new revision', async () => {
    const { id } = (await call('POST', '/api/posts', { ...post, title: 'Three edits' })).body.post;
    for (const [n, words] of ['one two three', 'one 2 three four', 'uno two three'].entries())
      await call('PUT', `/api/posts?id=${id}`, {
        ...post,
        title: 'Three edits',
        content: words,
        baseVersion: n + 1,
      });
    const revisions = await revisionsOf(id);
    expect(revisions.map((r) => r.content)).toEqual([
      'uno two three',
      'one 2 three four',
      'one two three',
      post.content,
    ]);
    const first = revisions.at(-1)?.id;
    expect(
      (await call('POST', `/api/posts/${id}/revisions/${first}?action=restore`, { baseVersion: 3 })).status,
    ).toBe(409);
    const restored = await call('POST', `/api/posts/${id}/revisions/${first}?action=restore`, {
      baseVersion: 4,
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      message: POST_MESSAGES.restored,
      post: { content: post.content, version: 5 },
    });
    const after = await revisionsOf(id);
    expect(after[0]).toMatchObject({ kind: 'restore', version: 5, content: post.content });
    expect(after).toHaveLength(5);

    // Another post's revision, or a half-written autosave, cannot be restored.
    const other = (await call('POST', '/api/posts', { ...post, title: 'Another' })).body.post;
    const foreign = await call('POST', `/api/posts/${other.id}/revisions/${first}?action=restore`, {});
    expect(foreign).toEqual({ status: 404, body: { message: POST_MESSAGES.revisionNotFound } });
    await call('PUT', `/api/posts/${other.id}?action=autosave`, { title: 'Another', baseVersion: 1 });
    const [draft] = await revisionsOf(other.id);
    const incomplete = await call('POST', `/api/posts/${other.id}/revisions/${draft.id}?action=restore`, {});
    expect(incomplete).toEqual({ status: 400, body: { message: POST_MESSAGES.requiredFields } });
  });

  it(`keeps the newest ${MAX_REVISIONS} revisions: the 51st thins the oldest`, async () => {
    const { id } = (await call('POST', '/api/posts', { ...post, title: 'Many saves' })).body.post;
    for (let n = 1; n < MAX_REVISIONS; n++)
      await call('PUT', `/api/posts?id=${id}`, { ...post, title: 'Many saves', content: `Save ${n}` });
    let revisions = await revisionsOf(id);
    expect(revisions).toHaveLength(MAX_REVISIONS);
    expect(revisions.at(-1)?.content).toBe(post.content);
    await call('PUT', `/api/posts?id=${id}`, { ...post, title: 'Many saves', content: 'Save 50' });
    revisions = await revisionsOf(id);
    expect(revisions).toHaveLength(MAX_REVISIONS);
    expect(revisions[0].content).toBe('Save 50');
    expect(revisions.at(-1)?.content).toBe('Save 1');
  });

  it('stores LF line ends however a save sends them, and records nothing for a save that changes nothing', async () => {
    const lf = 'First line.\nSecond line.\n\nA new paragraph.';
    const crlf = lf.replace(/\n/g, '\r\n');
    const created = await call('POST', '/api/posts', {
      ...post,
      title: 'Line ends',
      content: crlf,
      excerpt: 'One\r\ntwo',
    });
    expect(created.status).toBe(201);
    const { id } = created.body.post;
    const stored = () =>
      app.services.db('posts').where({ id }).first('content', 'excerpt', 'version', 'updated_at');
    const first = await stored();
    expect(first).toMatchObject({ content: lf, excerpt: 'One\ntwo', version: 1 });

    // The editor's form without JavaScript: the browser sends the textarea with CRLF line ends.
    const fields = {
      title: 'Line ends',
      slug: 'line-ends',
      content: crlf,
      excerpt: 'One\r\ntwo',
      category: 'Technology',
      status: 'published',
      baseVersion: '1',
    };
    const formSave = await fetch(`${app.url}/admin/posts/${id}`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });
    expect(formSave.status).toBe(302);
    // The API, the same text again, with either line ends.
    for (const content of [lf, crlf])
      expect(
        (
          await call('PUT', `/api/posts?id=${id}`, {
            ...post,
            title: 'Line ends',
            content,
            excerpt: 'One\ntwo',
          })
        ).status,
      ).toBe(200);
    expect(await stored()).toEqual(first);
    expect((await revisionsOf(id)).map((r) => [r.kind, r.version])).toEqual([['publish', 1]]);

    // After an autosave, saving the stored text settles the draft (not offered again), still no revision.
    await call('PUT', `/api/posts/${id}?action=autosave`, {
      ...post,
      title: 'Line ends',
      content: 'Second thoughts',
      baseVersion: 1,
    });
    const settled = await call('PUT', `/api/posts?id=${id}`, {
      ...post,
      title: 'Line ends',
      content: crlf,
      excerpt: 'One\ntwo',
      baseVersion: 2,
    });
    expect(settled.body.post).toMatchObject({ version: 3, content: lf });
    expect(await unsavedDraft(app.services.db, id)).toBeNull();
    expect((await revisionsOf(id)).map((r) => r.kind)).toEqual(['autosave', 'publish']);

    // A real change is a revision.
    await call('PUT', `/api/posts?id=${id}`, {
      ...post,
      title: 'Line ends',
      content: `${crlf}\r\nMore.`,
      excerpt: 'One\ntwo',
    });
    expect((await stored())?.content).toBe(`${lf}\nMore.`);
    expect((await revisionsOf(id)).map((r) => r.kind)).toEqual(['publish', 'autosave', 'publish']);
  });

  it('answers bad requests with 4xx and a message', async () => {
    const { id } = (await call('POST', '/api/posts', { ...post, title: 'Bad requests' })).body.post;
    expect(await call('PUT', `/api/posts/${id}?action=autosave`, { title: 'x' })).toEqual({
      status: 400,
      body: { message: 'baseVersion must be a positive integer' },
    });
    expect((await call('PUT', `/api/posts/${id}?action=publish`, { baseVersion: 1 })).status).toBe(400);
    expect((await call('PUT', `/api/posts/999999?action=autosave`, { baseVersion: 1 })).status).toBe(404);
    expect((await call('PUT', `/api/posts/abc?action=autosave`, { baseVersion: 1 })).status).toBe(404);
    expect((await call('GET', '/api/posts/999999/revisions')).status).toBe(404);
    expect((await call('POST', `/api/posts/${id}/revisions/1x?action=restore`, {})).status).toBe(404);
    expect(
      (await call('PUT', `/api/posts?id=${id}`, { ...post, title: 'Bad requests', baseVersion: 'two' })).body,
    ).toEqual({ message: 'baseVersion must be a positive integer' });
  });
});
