import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_MESSAGES } from '../../src/blog/messages.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import { startSmtpServer } from '../support/smtp.ts';

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let post: { id: number; slug: string; title: string };
let otherPost: { id: number };
let admin: Awaited<ReturnType<typeof signedInSession>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({
    withWorker: true,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Blog <blog@example.org>' },
  });
  await seedDemo(app);
  post = await publishedPost(app);
  otherPost = await app.services
    .db('posts')
    .where({ status: 'published' })
    .whereNot({ id: post.id })
    .first('id');
  admin = await signedInSession(app, { role: 'admin', firstName: 'Alex', lastName: 'Writer' });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const json = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${app.url}${path}`, init);
  return { status: res.status, body: await res.json() };
};
const postComment = (body: object, headers: Record<string, string> = {}) =>
  json('/api/comments', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ postId: post.id, ...body }),
  });
const moderate = (id: number, approved: boolean) =>
  json(`/api/comments?id=${id}&action=moderate`, {
    method: 'PUT',
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ approved }),
  });
const thread = async () => (await json(`/api/comments?postId=${post.id}`)).body;

/** A comment straight into the table: the public API's rate limit is for the posting tests. */
async function stored(values: {
  author: string;
  email: string;
  approved?: boolean;
  notify?: boolean;
  postId?: number;
}) {
  const [row] = await app.services
    .db('comments')
    .insert({
      post_id: values.postId ?? post.id,
      author: values.author,
      email: values.email,
      content: `A remark by ${values.author}`,
      approved: values.approved ?? true,
      notify: values.notify ?? false,
    })
    .returning('id');
  return row.id as number;
}

const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

describe('replies', () => {
  it('nests a reply under its comment, a reply to a reply under the same top-level comment, after moderation', async () => {
    const top = await stored({ author: 'Rosa', email: 'rosa@example.com' });
    const reply = await postComment({
      parentId: top,
      author: 'Sam',
      email: 'sam@example.com',
      content: 'I agree',
    });
    expect(reply.status).toBe(201);
    expect(reply.body.comment).toMatchObject({ parentId: top, approved: false, author: 'Sam' });
    expect(reply.body.message).toBe(BLOG_MESSAGES.commentPending.description);
    // Pending replies are not shown, and cannot be answered yet.
    let listed = await thread();
    expect(listed.comments.find((c: { id: number }) => c.id === top).replies).toEqual([]);
    const early = {
      parentId: reply.body.comment.id,
      author: 'Tia',
      email: 'tia@example.com',
      content: 'So do I',
    };
    expect((await postComment(early)).status).toBe(400);
    expect((await moderate(reply.body.comment.id, true)).status).toBe(200);
    const answer = await postComment(early);
    // One level of nesting: shown under the top-level comment, though it answers Sam.
    expect(answer.body.comment.parentId).toBe(top);

    expect((await moderate(answer.body.comment.id, true)).status).toBe(200);
    listed = await thread();
    const shown = listed.comments.find((c: { id: number }) => c.id === top);
    expect(
      shown.replies.map((r: { author: string; parentId: number; byAuthor: boolean }) => [
        r.author,
        r.parentId,
        r.byAuthor,
      ]),
    ).toEqual([
      ['Sam', top, false],
      ['Tia', top, false],
    ]);
    // Replies are not listed again as top-level comments; no email anywhere.
    expect(listed.comments.map((c: { id: number }) => c.id)).not.toContain(reply.body.comment.id);
    expect(JSON.stringify(listed)).not.toContain('@example.com');

    // The moderation list says whom a reply answers.
    const all = await json('/api/comments?action=all&search=So%20do%20I', { headers: admin.headers });
    expect(all.body.comments[0].replyTo).toEqual({ id: reply.body.comment.id, author: 'Sam' });
  });

  it('refuses a bad parentId, a pending or missing parent, and a parent on another post', async () => {
    const pending = await stored({ author: 'Pat', email: 'pat@example.com', approved: false });
    const elsewhere = await stored({ author: 'Eve', email: 'eve@example.com', postId: otherPost.id });
    const base = { author: 'Val', email: 'val@example.com', content: 'A reply' };
    const bad = await postComment({ ...base, parentId: 'abc' });
    expect(bad).toEqual({ status: 400, body: { message: BLOG_MESSAGES.replyParentInvalid } });
    expect((await postComment({ ...base, parentId: -3 })).body.message).toBe(
      BLOG_MESSAGES.replyParentInvalid,
    );
    for (const parentId of [pending, elsewhere, 2 ** 31 - 1]) {
      expect(await postComment({ ...base, parentId })).toEqual({
        status: 400,
        body: { message: BLOG_MESSAGES.replyParentMissing.description },
      });
    }
    expect((await postComment({ ...base, notify: 'maybe' })).status).toBe(400);
    expect(await app.services.db('comments').where({ email: 'val@example.com' }).pluck('id')).toEqual([]);
  });

  it("publishes an admin's reply at once, marked Author, from the post or from moderation", async () => {
    const pending = await stored({ author: 'Quinn', email: 'quinn@example.com', approved: false });
    const fromModeration = await json(`/api/comments?id=${pending}&action=reply`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ content: '  Thanks, Quinn!  ' }),
    });
    expect(fromModeration).toEqual({ status: 201, body: { message: 'Reply published' } });
    // Answering a pending comment approves it: the answer would otherwise be hidden.
    const listed = await thread();
    const shown = listed.comments.find((c: { id: number }) => c.id === pending);
    expect(shown.replies).toMatchObject([
      { author: 'Alex Writer', content: 'Thanks, Quinn!', byAuthor: true },
    ]);

    const direct = await postComment(
      { parentId: pending, author: 'Alex', email: admin.user.email, content: 'One more thing' },
      admin.headers,
    );
    expect(direct.body.comment).toMatchObject({ approved: true, parentId: pending });

    // Only admins reply from moderation; an empty reply is refused.
    const reader = await signedInSession(app);
    const refused = await json(`/api/comments?id=${pending}&action=reply`, {
      method: 'POST',
      headers: { ...reader.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Me too' }),
    });
    expect(refused.status).toBe(403);
    const empty = await json(`/api/comments?id=${pending}&action=reply`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ content: ' ' }),
    });
    expect(empty).toEqual({ status: 400, body: { message: BLOG_MESSAGES.missingInfo.description } });
    const missing = await json('/api/comments?id=999999&action=reply', {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Hello' }),
    });
    expect(missing).toEqual({ status: 404, body: { message: 'Comment not found' } });
  });
});

describe('mail to commenters who ask for it', () => {
  it('tells them once when their comment is published and once per reply, with a one-click unsubscribe', async () => {
    const wants = await stored({ author: 'Nora', email: 'nora@example.com', approved: false, notify: true });
    const quiet = await stored({ author: 'Otto', email: 'otto@example.com', approved: false });
    expect((await moderate(wants, true)).status).toBe(200);
    expect((await moderate(quiet, true)).status).toBe(200);
    const published = await smtp.waitFor((m) => m.to.includes('nora@example.com'));
    expect(published.subject).toBe(`Your comment on “${post.title}” is published`);
    expect(published.text).toContain(`${app.url}/post/${post.slug}#comment-${wants}`);
    expect(published.messageId).toBe(`<comment-published-${wants}@example.org>`);

    // Unapproved and approved again: no second mail.
    await moderate(wants, false);
    await moderate(wants, true);
    // An answer by someone else (approved), and one by Nora herself (never mailed to her).
    const answer = await stored({ author: 'Pia', email: 'pia@example.com', approved: false });
    await app.services.db('comments').where({ id: answer }).update({ parent_id: wants, reply_to_id: wants });
    const own = await stored({ author: 'Nora', email: 'NORA@example.com', approved: false });
    await app.services.db('comments').where({ id: own }).update({ parent_id: wants, reply_to_id: wants });
    await moderate(own, true);
    await moderate(answer, true);
    await moderate(answer, false);
    await moderate(answer, true);
    const replied = await smtp.waitFor((m) => m.subject.startsWith('Pia replied'));
    expect(replied.to).toEqual(['nora@example.com']);
    expect(replied.subject).toBe(`Pia replied to your comment on “${post.title}”`);
    expect(replied.text).toContain('A remark by Pia');
    expect(replied.text).toContain(`#comment-${answer}`);
    // Every job had time to run: one mail of each kind, none to those who did not ask.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(mailsTo('nora@example.com').map((m) => m.subject)).toEqual([published.subject, replied.subject]);
    expect(mailsTo('otto@example.com')).toEqual([]);
    expect(mailsTo('pia@example.com')).toEqual([]);
    // Nothing in a notice gives away another commenter's address.
    for (const mail of [published, replied]) expect(JSON.stringify(mail)).not.toContain('pia@example.com');

    // The one-click POST a mailbox provider sends (RFC 8058), twice; opening the link changes nothing.
    expect(replied.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const url =
      /^<(http:\/\/127\.0\.0\.1:\d+\/comments\/unsubscribe\?token=\d+\.[\w-]{32})>, <mailto:[^>]+>$/.exec(
        replied.headers['list-unsubscribe'],
      )?.[1] ?? '';
    expect(url).not.toBe('');
    expect(replied.text).toContain(url);
    const opened = await fetch(url);
    expect(await opened.text()).toContain('Stop comment notifications?');
    expect((await app.services.db('comments').where({ id: wants }).first('notify')).notify).toBe(true);
    const forged = url.replace(/token=\d+\./, `token=${quiet}.`);
    const refused = await fetch(forged, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain('Link not valid');
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('You are unsubscribed');
    }
    expect(
      await app.services.db('comments').whereRaw("lower(email) = 'nora@example.com'").pluck('notify'),
    ).toEqual([false, false]);

    // Unsubscribed: a later answer is not mailed.
    const later = await stored({ author: 'Rex', email: 'rex@example.com', approved: false });
    await app.services.db('comments').where({ id: later }).update({ parent_id: wants, reply_to_id: wants });
    await moderate(later, true);
    const sentinel = await stored({ author: 'Sid', email: 'sid@example.com', approved: false, notify: true });
    await moderate(sentinel, true);
    await smtp.waitFor((m) => m.to.includes('sid@example.com'));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(mailsTo('nora@example.com')).toHaveLength(2);
  });
});
