import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTab } from '../../src/app/admin/admin-data.server.ts';
import { renderMarkdown } from '../../src/blog/markdown.ts';
import { sendNewsletterBatch } from '../../src/blog/newsletter-delivery.ts';
import type { Mailer } from '../../src/jobs/mailer.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { seedDemo } from '../support/blog.ts';
import { createProductRow } from '../support/shop.ts';
import { type CapturedMail, startSmtpServer } from '../support/smtp.ts';

const BOUNCES = 'gone@example.com';
const FLAKY = 'later@example.com';
const MAIL_FROM = 'letters@example.org';
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let admin: { headers: Record<string, string>; email: string };
let flakyRefusals = 0;
beforeAll(async () => {
  smtp = await startSmtpServer({
    refuseRecipient: (address) => {
      if (address === BOUNCES) return 550;
      // A greylisting server: the first try is told to come back later.
      if (address === FLAKY && flakyRefusals++ === 0) return 451;
      return null;
    },
  });
  app = await startTestApp({
    withWorker: true,
    env: { SMTP_URL: smtp.url, NEWSLETTER_RATE_PER_SECOND: '200', MAIL_FROM: `Penstand <${MAIL_FROM}>` },
  });
  await seedDemo(app);
  const session = await signedInSession(app, { role: 'admin' });
  admin = { headers: { ...session.headers, 'content-type': 'application/json' }, email: session.user.email };
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

async function addSubscribers(rows: { email: string; status: string }[]) {
  await app.services
    .db('newsletter_subscribers')
    .insert(rows.map((r, i) => ({ ...r, token: `token-${r.email.replace(/\W/g, '')}-${i}-xxxxxxxxxxxx` })));
}

async function newPost(title: string, status: 'published' | 'draft' | 'scheduled' = 'published') {
  const [post] = await app.services
    .db('posts')
    .insert({
      title,
      slug: title.toLowerCase().replace(/\W+/g, '-'),
      content: 'Body',
      content_html:
        '<p>First paragraph with <a href="/post/other">a link</a>.</p><div class="video-embed"><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" title="YouTube video" allowfullscreen></iframe></div><p><img src="/uploads/picture.jpg" alt="A picture"></p><div class="audio-embed"><audio controls preload="none" src="/uploads/episode.mp3"></audio></div>',
      excerpt: 'Excerpt',
      category: 'Technology',
      status,
      published_at: status === 'published' ? new Date() : null,
      publish_at: status === 'scheduled' ? new Date(Date.now() + 3_600_000) : null,
    })
    .returning(['id', 'title', 'slug']);
  return post as { id: number; title: string; slug: string };
}

const call = async (method: string, path: string) => {
  const res = await fetch(`${app.url}${path}`, { method, headers: admin.headers });
  return { status: res.status, body: await res.json() };
};

const mailsTo = (address: string, subject: string) =>
  smtp.messages.filter((m) => m.to.includes(address) && m.subject === subject);

describe('sending a post as a newsletter', () => {
  it('mails each confirmed subscriber once, with one-click unsubscribe, and never twice', async () => {
    await addSubscribers([
      { email: 'ann@example.com', status: 'confirmed' },
      { email: 'bob@example.com', status: 'confirmed' },
      { email: 'cat@example.com', status: 'confirmed' },
      { email: 'pending@example.com', status: 'pending' },
      { email: 'left@example.com', status: 'unsubscribed' },
    ]);
    const post = await newPost('Letters from the desk');
    // No contact email in Settings: the mailto falls back to MAIL_FROM's mailbox.
    await app.services.db('blog_settings').where({ id: 1 }).update({ contact_email: null });
    const before = await call('GET', `/api/admin/posts/${post.id}/newsletter`);
    expect(before).toEqual({
      status: 200,
      body: { state: null, total: 0, sent: 0, failed: 0, subscribers: 3 },
    });

    // A test first: only the admin gets it, and it does not count as the send.
    expect((await call('POST', `/api/admin/posts/${post.id}/newsletter?test=1`)).status).toBe(200);
    const test = await smtp.waitFor((m) => m.subject === `[Test] ${post.title}`);
    expect(test.to).toEqual([admin.email]);

    const sent = await call('POST', `/api/admin/posts/${post.id}/newsletter`);
    expect(sent.status).toBe(202);
    const again = await call('POST', `/api/admin/posts/${post.id}/newsletter`);
    expect(again).toEqual({ status: 409, body: { message: 'This post has already been sent by email.' } });

    await expect
      .poll(async () => (await call('GET', `/api/admin/posts/${post.id}/newsletter`)).body, {
        timeout: 20_000,
      })
      .toMatchObject({ state: 'sent', total: 3, sent: 3, failed: 0 });
    const received = smtp.messages.filter((m) => m.subject === post.title);
    expect(received.map((m) => m.to[0]).sort()).toEqual([
      'ann@example.com',
      'bob@example.com',
      'cat@example.com',
    ]);

    const others = [
      'ann@example.com',
      'bob@example.com',
      'cat@example.com',
      'pending@example.com',
      'left@example.com',
    ];
    for (const mail of received) {
      const raw = JSON.stringify([mail.text, mail.html, mail.headers]);
      for (const other of others.filter((o) => o !== mail.to[0])) expect(raw).not.toContain(other);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      // Both forms, always; the mailto names the reader and carries their own link for whoever
      // reads that mailbox.
      const [, https, mailto] =
        /^<(http:\/\/127\.0\.0\.1:\d+\/newsletter\/unsubscribe\?token=\d+\.[\w-]{32})>, <(mailto:[^>]+)>$/.exec(
          mail.headers['list-unsubscribe'],
        ) ?? [];
      expect(https).toBeDefined();
      const mailtoUrl = new URL(mailto);
      expect(mailtoUrl.pathname).toBe(MAIL_FROM);
      expect(mailtoUrl.searchParams.get('subject')).toBe(`Unsubscribe ${mail.to[0]}`);
      expect(mailtoUrl.searchParams.get('body')).toBe(`Please unsubscribe me: ${https}`);
      // Every attempt at this mail carries one Message-ID, so a receiver can drop a repeat.
      const subscriber = await app.services
        .db('newsletter_subscribers')
        .where({ email: mail.to[0] })
        .first('id');
      expect(mail.messageId).toBe(`<newsletter-${post.id}-${subscriber.id}@example.org>`);
      expect(mail.text).toContain(`Read on the site: ${app.url}/post/${post.slug}`);
      // Mail clients play no video: the player is a linked thumbnail; site links are absolute.
      expect(mail.html).toContain('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
      expect(mail.html).not.toContain('<iframe');
      expect(mail.html).toContain(`src="${app.url}/uploads/picture.jpg"`);
      // The podcast player is a linked cover with 'Listen on the site', opening the post.
      expect(mail.html).not.toContain('<audio');
      expect(mail.html).toContain(
        `<a href="${app.url}/post/${post.slug}"><img src="${app.url}/podcast-cover.png" alt="Podcast cover"`,
      );
      expect(mail.html).toMatch(
        new RegExp(`<a href="${app.url}/post/${post.slug}"[^>]*>&#9654; Listen on the site</a>`),
      );
      // Dark-mode clients: the metas, and colours for text, links and the page under the media query.
      expect(mail.html).toContain('<meta name="color-scheme" content="light dark">');
      expect(mail.html).toContain('<meta name="supported-color-schemes" content="light dark">');
      const dark = /@media \(prefers-color-scheme: dark\)\{([\s\S]*?)\n\}/.exec(mail.html)?.[1] ?? '';
      expect(dark).toMatch(/\.nl-card\{background:#1f2937 !important;color:#f3f4f6 !important\}/);
      expect(dark).toMatch(/\.nl-card a\{color:#93c5fd !important\}/);
      expect(dark).toMatch(/\.nl-page\{background:#111827 !important\}/);
      for (const cls of ['nl-page', 'nl-card', 'nl-muted', 'nl-button'])
        expect(mail.html).toContain(`class="${cls}"`);
      expect(Buffer.byteLength(mail.html)).toBeLessThan(100_000);
    }

    const cover = await fetch(`${app.url}/podcast-cover.png`);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/png');

    // The one-click POST a mailbox provider sends, twice (idempotent); then a second post skips her.
    const ann = received.find((m) => m.to[0] === 'ann@example.com') as CapturedMail;
    const url = /<(http[^>]+)>/.exec(ann.headers['list-unsubscribe'])?.[1] ?? '';
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
      (await app.services.db('newsletter_subscribers').where({ email: 'ann@example.com' }).first()).status,
    ).toBe('unsubscribed');
    // Opening the link alone (a mail scanner) changes nothing; a forged token is refused.
    const bob = received.find((m) => m.to[0] === 'bob@example.com') as CapturedMail;
    const bobUrl = /<(http[^>]+)>/.exec(bob.headers['list-unsubscribe'])?.[1] ?? '';
    expect((await fetch(bobUrl)).status).toBe(200);
    const bobId = Number(/token=(\d+)\./.exec(bobUrl)?.[1]);
    const forged = url.replace(/token=\d+\./, `token=${bobId}.`);
    const refused = await fetch(forged, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain('Link not valid');
    expect((await app.services.db('newsletter_subscribers').where({ id: bobId }).first()).status).toBe(
      'confirmed',
    );

    const next = await newPost('A second letter');
    expect((await call('POST', `/api/admin/posts/${next.id}/newsletter`)).status).toBe(202);
    await expect
      .poll(async () => (await call('GET', `/api/admin/posts/${next.id}/newsletter`)).body.state, {
        timeout: 20_000,
      })
      .toBe('sent');
    expect(mailsTo('ann@example.com', next.title)).toHaveLength(0);
    expect(mailsTo('bob@example.com', next.title)).toHaveLength(1);
  });

  it('shows product cards, tables and a line for each image, video and podcast in both parts', async () => {
    const { db } = app.services;
    const product = await createProductRow(db, {
      name: 'Field & Stream Notebook',
      price: 1250,
      image: '/uploads/notebook.jpg',
    });
    const hidden = await createProductRow(db, { name: 'Retired mug', status: 'inactive' });
    const markdown = [
      'Before the card.',
      `[product:${product.id}]`,
      `[product:${hidden.id}]`,
      '![A hilltop at dawn](/uploads/hill.jpg)',
      '[youtube:dQw4w9WgXcQ]',
      '[podcast:/uploads/episode.mp3]',
      '| Size | Pages |\n| --- | --- |\n| A5 | 120 |',
    ].join('\n\n');
    const [post] = await db('posts')
      .insert({
        title: 'The shop letter',
        slug: 'the-shop-letter',
        content: markdown,
        content_html: renderMarkdown(markdown),
        excerpt: 'Excerpt',
        category: 'Technology',
        status: 'published',
        published_at: new Date(),
      })
      .returning(['id', 'slug']);
    expect((await call('POST', `/api/admin/posts/${post.id}/newsletter?test=1`)).status).toBe(200);
    const mail = await smtp.waitFor((m) => m.subject === '[Test] The shop letter');
    const productUrl = `${app.url}/product/${product.id}`;
    const postUrl = `${app.url}/post/${post.slug}`;

    // The card, as mail clients draw it: image, name and price linked, and a button to the product.
    expect(mail.html).toContain(`<a href="${productUrl}"><img src="${app.url}/uploads/notebook.jpg"`);
    expect(mail.html).toMatch(new RegExp(`<a href="${productUrl}"[^>]*>Field &#38; Stream Notebook</a>`));
    expect(mail.html).toContain('$12.50');
    expect(mail.html).toMatch(new RegExp(`<a href="${productUrl}" class="nl-button"[^>]*>View product</a>`));
    expect(mail.html).not.toContain('Retired mug');
    expect(mail.html).not.toContain('product-slot');
    // Tables keep their rules and room in mail clients, which drop the site's stylesheet.
    expect(mail.html).toMatch(/<table style="[^"]*border-collapse:collapse/);
    expect(mail.html).toMatch(/<th style="border:1px solid #d1d5db;padding:6px 10px[^"]*">Size<\/th>/);
    expect(mail.html).toMatch(/<td style="border:1px solid #d1d5db;padding:6px 10px[^"]*">A5<\/td>/);

    // The text part: a line with a link for everything the HTML part shows as a picture or a card.
    const lines = mail.text.split('\n');
    expect(lines).toContain(`[Product: Field & Stream Notebook, $12.50] ${productUrl}`);
    expect(lines).toContain(`[Image: A hilltop at dawn] ${app.url}/uploads/hill.jpg`);
    expect(lines).toContain('[Video] https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(lines).toContain(`[Podcast] ${postUrl}`);
    expect(lines).toContain('Size | Pages');
    expect(lines).toContain('A5 | 120');
    expect(mail.text).not.toContain('Retired mug');
  });

  it('says a published post’s requested newsletter is starting, a scheduled one’s that it waits', async () => {
    const published = await newPost('Starting at once');
    const scheduled = await newPost('Waiting for its time', 'scheduled');
    // As right after Send: requested, not yet picked up by the worker.
    await app.services.db('newsletters').insert([{ post_id: published.id }, { post_id: scheduled.id }]);
    const card = async (id: number) => {
      const html = await (await fetch(`${app.url}/admin/posts/${id}`, { headers: admin.headers })).text();
      return /data-testid="newsletter-progress">([^<]*)</.exec(html)?.[1];
    };
    expect(await card(published.id)).toBe('Starting: it goes out in a few seconds.');
    expect(await card(scheduled.id)).toBe('Queued: it goes out when the post is published.');
    await app.services.db('newsletters').whereIn('post_id', [published.id, scheduled.id]).delete();
  });

  it('marks a 550 address bounced, retries a 451, and delivers the rest', async () => {
    await addSubscribers([
      { email: BOUNCES, status: 'confirmed' },
      { email: FLAKY, status: 'confirmed' },
    ]);
    const post = await newPost('Third letter');
    expect((await call('POST', `/api/admin/posts/${post.id}/newsletter`)).status).toBe(202);
    await expect
      .poll(async () => (await call('GET', `/api/admin/posts/${post.id}/newsletter`)).body, {
        timeout: 30_000,
      })
      .toMatchObject({ state: 'sent', failed: 1 });
    expect(mailsTo(FLAKY, post.title)).toHaveLength(1);
    expect(flakyRefusals).toBeGreaterThanOrEqual(2);
    expect(mailsTo(BOUNCES, post.title)).toHaveLength(0);
    expect((await app.services.db('newsletter_subscribers').where({ email: BOUNCES }).first()).status).toBe(
      'bounced',
    );
    expect(mailsTo('bob@example.com', post.title)).toHaveLength(1);
  });

  it('refuses a draft, waits for a scheduled post to be published, and lets an unsubscribed reader opt in again', async () => {
    const draft = await newPost('Draft letter', 'draft');
    expect(await call('POST', `/api/admin/posts/${draft.id}/newsletter`)).toEqual({
      status: 409,
      body: { message: 'Only a published or scheduled post can be sent by email.' },
    });
    const scheduled = await newPost('Scheduled letter', 'scheduled');
    expect((await call('POST', `/api/admin/posts/${scheduled.id}/newsletter`)).body.state).toBe('queued');
    await app.services
      .db('posts')
      .where({ id: scheduled.id })
      .update({ publish_at: new Date(Date.now() - 1000) });
    await app.services.queues.enqueue('maintenance.publish-due', {});
    await expect
      .poll(async () => (await call('GET', `/api/admin/posts/${scheduled.id}/newsletter`)).body.state, {
        timeout: 20_000,
      })
      .toBe('sent');
    expect(mailsTo('bob@example.com', scheduled.title)).toHaveLength(1);

    const res = await fetch(`${app.url}/api/newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ email: 'ann@example.com' }),
    });
    expect(res.status).toBeLessThan(300);
    expect(
      (await app.services.db('newsletter_subscribers').where({ email: 'ann@example.com' }).first()).status,
    ).toBe('pending');
    await smtp.waitFor((m) => m.to.includes('ann@example.com') && m.subject === 'Confirm your subscription');
  });

  it('re-sends a mail whose send record was lost under the same Message-ID, then never again', async () => {
    const { db, mailer, publicUrl } = app.services;
    await addSubscribers([{ email: 'twice@example.com', status: 'confirmed' }]);
    const reader = await db('newsletter_subscribers').where({ email: 'twice@example.com' }).first('id');
    const post = await newPost('The letter that went twice');
    await db('newsletters').insert({ post_id: post.id, state: 'sending', total: 1 });
    await db('newsletter_sends').insert({ post_id: post.id, subscriber_id: reader.id });
    const batch = { postId: post.id, subscriberIds: [reader.id] };
    // With a contact email in Settings, the mailto goes there (a person reads it).
    await db('blog_settings').where({ id: 1 }).update({ contact_email: 'desk@example.com' });
    // The SMTP server accepts the mail, then the batch dies before its commit, as a worker killed
    // at that moment would: the transaction is rolled back and the row stays 'queued'.
    const dying: Mailer = {
      ...mailer,
      async send(mail) {
        await mailer.send(mail);
        throw new Error('killed after the SMTP server accepted the mail');
      },
    };
    const services = { db, publicUrl, currency: app.services.config.currency, ratePerSecond: 1000 };
    await expect(sendNewsletterBatch({ ...services, mailer: dying }, batch, false)).rejects.toThrow('killed');
    expect(await db('newsletter_sends').where({ post_id: post.id }).first('status')).toEqual({
      status: 'queued',
    });

    expect(await sendNewsletterBatch({ ...services, mailer }, batch, false)).toMatchObject({ sent: 1 });
    // A duplicated job finds the row sent.
    expect(await sendNewsletterBatch({ ...services, mailer }, batch, false)).toMatchObject({ sent: 0 });
    const copies = mailsTo('twice@example.com', post.title);
    expect(copies[0].headers['list-unsubscribe']).toContain(', <mailto:desk@example.com?subject=');
    expect(copies.map((m) => m.messageId)).toEqual([
      `<newsletter-${post.id}-${reader.id}@example.org>`,
      `<newsletter-${post.id}-${reader.id}@example.org>`,
    ]);
    expect((await call('GET', `/api/admin/posts/${post.id}/newsletter`)).body).toMatchObject({
      state: 'sent',
      total: 1,
      sent: 1,
    });
  });
});

describe('the Subscribers tab', () => {
  const adminForm = async (fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const res = await fetch(`${app.url}/admin?tab=subscribers`, {
      method: 'POST',
      headers: { cookie: admin.headers.cookie, origin: app.url },
      body: form,
    });
    return { status: res.status, html: await res.text() };
  };

  it('imports confirmed readers with consent, names bad lines, merges duplicates and respects opt-outs', async () => {
    // As spreadsheets write it: a BOM, CRLF, quoted fields with commas, doubled quotes and a line break.
    const csv = [
      '\uFEFF"Name, in full",Email',
      '"Doe, Jane ""JD""",quoted@example.com',
      'New,new-one@example.com',
      'Dup,NEW-ONE@example.com',
      '"Two',
      'lines",not an address',
      'X,"bad, address@example.com"',
      'P,pending@example.com',
      'B,gone@example.com',
      '',
    ].join('\r\n');
    const file = new Blob([csv], { type: 'text/csv' });
    const refused = await adminForm({ intent: 'import-subscribers', csv: file });
    expect(refused.html).toContain('Confirm that these readers agreed to receive your newsletter');
    expect(
      await app.services.db('newsletter_subscribers').where({ email: 'new-one@example.com' }).first(),
    ).toBeUndefined();

    const imported = await adminForm({ intent: 'import-subscribers', csv: file, consent: 'on' });
    expect(imported.status).toBe(200);
    expect(imported.html).toContain('2 added, 2 already subscribed');
    expect(imported.html).toContain('Not imported (not an email address): line 5, line 7.');
    const status = async (email: string) =>
      (await app.services.db('newsletter_subscribers').whereRaw('lower(email) = ?', [email]).first('status'))
        ?.status;
    expect(await status('new-one@example.com')).toBe('confirmed');
    expect(await status('quoted@example.com')).toBe('confirmed');
    expect(await status('pending@example.com')).toBe('confirmed');
    expect(await status(BOUNCES)).toBe('bounced');
  });

  it('counts subscribers by status and searches them by address, in the loader and on the page', async () => {
    const load = async (query: string) =>
      (await loadTab(app.services, 'subscribers', new URLSearchParams(query))) as {
        counts: Record<string, number>;
        subscribers: { email: string }[];
        pagination: { total: number };
        filters: { q: string; status: string };
      };
    const before = await load('');
    const added = { pending: 2, confirmed: 3, unsubscribed: 1, bounced: 4 };
    await addSubscribers(
      Object.entries(added).flatMap(([status, n]) =>
        Array.from({ length: n }, (_, i) => ({ email: `${status}${i}@counts.example`, status })),
      ),
    );
    await addSubscribers([{ email: 'a_b@counts.example', status: 'confirmed' }]);
    const after = await load('');
    expect(after.counts).toEqual({
      pending: before.counts.pending + 2,
      confirmed: before.counts.confirmed + 4,
      unsubscribed: before.counts.unsubscribed + 1,
      bounced: before.counts.bounced + 4,
    });

    const found = async (query: string) => {
      const data = await load(query);
      expect(data.pagination.total).toBe(data.subscribers.length);
      return data.subscribers.map((s) => s.email).sort();
    };
    // Any part of the address, in any case; the status narrows it.
    expect(await found('q=COUNTS.example')).toHaveLength(11);
    expect(await found('q=counts.example&status=bounced')).toEqual([
      'bounced0@counts.example',
      'bounced1@counts.example',
      'bounced2@counts.example',
      'bounced3@counts.example',
    ]);
    expect(await found('q=pending1@counts&status=pending')).toEqual(['pending1@counts.example']);
    expect(await found('q=pending1@counts&status=confirmed')).toEqual([]);
    // _ and % are letters here, not patterns.
    expect(await found('q=a_b')).toEqual(['a_b@counts.example']);
    expect(await found('q=%25@counts')).toEqual([]);
    // A status that does not exist shows all; an over-long search is dropped, not an error.
    expect((await load('status=nonsense')).filters).toEqual({ q: '', status: 'all' });
    expect((await load(`q=${'x'.repeat(201)}`)).filters).toEqual({ q: '', status: 'all' });

    const page = await fetch(`${app.url}/admin?tab=subscribers&q=counts.example&status=unsubscribed`, {
      headers: { cookie: admin.headers.cookie },
    });
    expect(page.status).toBe(200);
    const html = (await page.text()).replaceAll('<!-- -->', '');
    for (const [status, n] of Object.entries(after.counts))
      expect(html).toContain(`${status[0].toUpperCase()}${status.slice(1)}: ${n}</span>`);
    expect(html).toContain('unsubscribed0@counts.example');
    expect(html).not.toContain('bounced0@counts.example');
  });

  it('shows subscribers, their growth and each newsletter’s counts on the dashboard', async () => {
    const { body } = await call('GET', '/api/admin');
    const confirmed = await app.services
      .db('newsletter_subscribers')
      .where({ status: 'confirmed' })
      .count({ n: '*' });
    expect(body.stats.subscribers).toEqual({
      confirmed: Number(confirmed[0].n),
      last30Days: expect.any(Number),
    });
    const letter = body.recentActivity.newsletters.find(
      (n: { title: string }) => n.title === 'Letters from the desk',
    );
    expect(letter).toMatchObject({ state: 'sent', total: 3, sent: 3, failed: 0 });
    const third = body.recentActivity.newsletters.find((n: { title: string }) => n.title === 'Third letter');
    expect(third).toMatchObject({ failed: 1 });
  });

  it('erases a subscriber with everything sent to them', async () => {
    const { db } = app.services;
    const bob = await db('newsletter_subscribers').where({ email: 'bob@example.com' }).first('id');
    expect(await db('newsletter_sends').where({ subscriber_id: bob.id }).count({ n: '*' })).not.toEqual([
      { n: '0' },
    ]);
    const res = await adminForm({ intent: 'delete-subscriber', id: String(bob.id) });
    expect(res.html).toContain('Subscriber deleted');
    expect(await db('newsletter_subscribers').where({ id: bob.id }).first()).toBeUndefined();
    expect(await db('newsletter_sends').where({ subscriber_id: bob.id })).toEqual([]);
    const page = await fetch(`${app.url}/admin?tab=subscribers&status=bounced`, {
      headers: { cookie: admin.headers.cookie },
    });
    const html = await page.text();
    expect(html).toContain(BOUNCES);
    expect(html).not.toContain('ann@example.com');
  });
});
