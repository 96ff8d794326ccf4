import { beforeAll, describe, expect, it } from 'vitest';
import { signedInSession } from '../support/auth.ts';
import { createTierViaApi, paidMember } from '../support/members.ts';
import { deliverSigned, setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';
import { until } from '../support/until.ts';

/**
 * Issue 33's leak test: a paid post's hidden sentence, read through every way a post leaves the
 * site, as an anonymous reader, a free member and a cancelled member, each path twice (the second
 * from the page cache, the JSON cache or a session template): it is nowhere. A paying member
 * reads it on the page.
 */
const SECRET = 'whsec_paywall_leak';
const HIDDEN = 'Quokkaberry ledgers open at midnight';
const HIDDEN_WORD = 'quokkaberry';
const PREVIEW = 'Everyone may read this opening paragraph.';
const stack = setUpCardPaymentsApp(SECRET, { withWorker: true, env: { PAGE_CACHE_TTL_SECONDS: '60' } });

type Reader = { name: string; headers: Record<string, string> };
let admin: Record<string, string>;
let tierId: number;
let post: { id: number; slug: string };
let readers: Reader[];
let paying: Reader;
let emails: { free: string; paying: string };

beforeAll(async () => {
  const app = stack.app;
  const adminSession = await signedInSession(app, { role: 'admin', username: 'leakwriter' });
  admin = adminSession.headers;
  const tier = await createTierViaApi(app, admin, {
    name: 'Inner circle',
    monthlyPrice: 700,
    yearlyPrice: 7000,
  });
  tierId = tier.id;
  const res = await fetch(`${app.url}/api/posts`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: 'The members’ ledger',
      excerpt: 'What the ledger says',
      category: 'Business',
      tags: ['Ledgers'],
      status: 'published',
      visibility: 'paid',
      podcastUrl: '/uploads/paid-episode.mp3',
      content: `${PREVIEW}\n\nStill public before the line.\n\n[paywall]\n\n${HIDDEN}, and ![chart](https://example.com/hidden-chart.png) shows why.`,
    }),
  });
  expect(res.status).toBe(201);
  post = (await res.json()).post;
  const free = await signedInSession(app);
  const cancelled = await paidMember(app, stack.stripe, SECRET, tier.id);
  const ended = stack.stripe.event('customer.subscription.deleted', {
    ...stack.stripe.end(cancelled.subscriptionId),
  });
  expect((await deliverSigned(app, ended, SECRET)).body.outcome).toBe('applied');
  const payer = await paidMember(app, stack.stripe, SECRET, tier.id);
  readers = [
    { name: 'anonymous', headers: {} },
    { name: 'free member', headers: free.headers },
    { name: 'cancelled member', headers: cancelled.headers },
  ];
  paying = { name: 'paying member', headers: payer.headers };
  emails = { free: free.user.email, paying: payer.user.email };
});

/** Every way a post's words leave the site for a reader. */
const paths = () => [
  `/post/${post.slug}`,
  `/post/${post.slug}.data`,
  `/api/posts?slug=${post.slug}`,
  `/api/posts?id=${post.id}`,
  '/api/posts',
  `/api/posts?search=${HIDDEN_WORD}`,
  `/blog?search=${HIDDEN_WORD}`,
  '/',
  '/blog',
  '/tag/ledgers',
  '/category/business',
  '/author/leakwriter',
  '/rss.xml',
  '/tag/ledgers/rss.xml',
  '/podcast.xml',
  '/sitemap.xml',
];

async function read(path: string, reader: Reader) {
  const res = await fetch(`${stack.app.url}${path}`, { headers: reader.headers });
  return { status: res.status, cache: res.headers.get('x-cache'), text: await res.text() };
}

describe('a paid post’s hidden text', () => {
  it('reaches no reader without access through any path, cached or not', async () => {
    for (const reader of readers) {
      for (const path of paths()) {
        for (const round of ['uncached', 'cached']) {
          const { status, text } = await read(path, reader);
          expect(status, `${reader.name} ${path} (${round})`).toBeLessThan(500);
          for (const secret of [HIDDEN, HIDDEN_WORD, 'hidden-chart.png', 'paid-episode.mp3'])
            expect(text.toLowerCase(), `${reader.name} ${path} (${round})`).not.toContain(
              secret.toLowerCase(),
            );
        }
      }
    }
  });

  it('shows readers without access the preview and the way in', async () => {
    const anonymous = await read(`/post/${post.slug}`, readers[0]);
    expect(anonymous.text).toContain(PREVIEW);
    expect(anonymous.text).toContain('Still public before the line.');
    expect(anonymous.text).toContain('This post is for paying members');
    expect(anonymous.text).toContain(`/signup?redirectTo=${encodeURIComponent(`/post/${post.slug}`)}`);
    const free = await read(`/post/${post.slug}`, readers[1]);
    expect(free.text).toContain('Become a paying member to read the whole post.');
    expect(free.text).toContain('$7.00 a');
    expect(free.text).toContain('$70.00 a');
  });

  it('reaches a paying member on the page and through the API, also after others were served', async () => {
    for (const round of ['first', 'again']) {
      const page = await read(`/post/${post.slug}`, paying);
      expect(page.text, round).toContain(HIDDEN);
      expect(page.text).not.toContain('[paywall]');
      expect(page.text).not.toContain('This post is for paying members');
      const api = await read(`/api/posts?slug=${post.slug}`, paying);
      expect(JSON.parse(api.text).post).toMatchObject({ locked: false });
      expect(api.text).toContain(HIDDEN);
    }
    // The paying member's copies were not handed to anyone else.
    for (const reader of readers)
      expect((await read(`/post/${post.slug}`, reader)).text).not.toContain(HIDDEN);
  });

  it('is not in the newsletter mailed to subscribers', async () => {
    await stack.app.services.db('newsletter_subscribers').insert({
      email: 'free-reader@example.com',
      status: 'confirmed',
      token: `token-leak-${'x'.repeat(24)}`,
    });
    const res = await fetch(`${stack.app.url}/api/admin/posts/${post.id}/newsletter`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(202);
    const mail = await stack.smtp.waitFor((m) => m.to.includes('free-reader@example.com'));
    expect(mail.html).toContain(PREVIEW);
    for (const part of [mail.html, mail.text]) {
      expect(part).not.toContain(HIDDEN);
      expect(part).not.toContain('hidden-chart.png');
    }
  });
});

/** The member asks for a private feed on the Account page (a plain form) and reads its address there. */
async function privateFeedOf(reader: Reader): Promise<string> {
  const res = await fetch(`${stack.app.url}/account`, {
    method: 'POST',
    headers: { ...reader.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'intent=private-feed',
  });
  expect(res.status).toBe(200);
  const page = await (await fetch(`${stack.app.url}/account`, { headers: reader.headers })).text();
  const address = /<code class="private-feed">([^<]+)<\/code>/.exec(page)?.[1];
  if (!address) throw new Error('no private feed on the Account page');
  return address;
}

describe('the private podcast feed', () => {
  it('carries the paid episode for a paying member, until the address is revoked', async () => {
    const address = await privateFeedOf(paying);
    const feed = await fetch(address);
    expect(feed.headers.get('cache-control')).toBe('private, no-store');
    expect(await feed.text()).toContain('paid-episode.mp3');
    const renewed = await privateFeedOf(paying);
    expect(renewed).not.toBe(address);
    expect((await fetch(address)).status).toBe(404);
    expect(await (await fetch(renewed)).text()).toContain('paid-episode.mp3');
    expect(await (await fetch(`${stack.app.url}/podcast.xml`)).text()).not.toContain('paid-episode.mp3');
  });

  it('stops carrying it when the membership ends', async () => {
    const member = await paidMember(stack.app, stack.stripe, SECRET, tierId);
    const reader = { name: 'leaving member', headers: member.headers };
    const address = await privateFeedOf(reader);
    expect(await (await fetch(address)).text()).toContain('paid-episode.mp3');
    const ended = stack.stripe.event('customer.subscription.deleted', {
      ...stack.stripe.end(member.subscriptionId),
    });
    expect((await deliverSigned(stack.app, ended, SECRET)).body.outcome).toBe('applied');
    const after = await fetch(address);
    expect(after.status).toBe(200);
    expect(await after.text()).not.toContain('paid-episode.mp3');
  });
});

describe('member newsletters', () => {
  async function gatedPost(title: string, secret: string) {
    const res = await fetch(`${stack.app.url}/api/posts`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({
        title,
        excerpt: 'For the newsletter',
        category: 'Business',
        status: 'published',
        visibility: 'paid',
        content: `${PREVIEW}\n\n[paywall]\n\n${secret}`,
      }),
    });
    return (await res.json()).post as { id: number };
  }
  const send = (postId: number, body: unknown) =>
    fetch(`${stack.app.url}/api/admin/posts/${postId}/newsletter`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('mails a paid post whole to paid members only, and its preview to free members', async () => {
    await stack.app.services.db('newsletter_subscribers').insert([
      { email: emails.free, status: 'confirmed', token: `token-free-${'f'.repeat(24)}` },
      { email: emails.paying, status: 'confirmed', token: `token-paid-${'p'.repeat(24)}` },
    ]);
    const forPaid = await gatedPost('For paying readers', 'Paid readers learn the harbour code.');
    expect((await send(forPaid.id, { audience: 'paid', tierId })).status).toBe(202);
    const whole = await stack.smtp.waitFor(
      (m) => m.to.includes(emails.paying) && m.text.includes('harbour code'),
    );
    expect(whole.html).toContain('Paid readers learn the harbour code.');
    const forFree = await gatedPost('For free readers', 'Free readers never see the lantern code.');
    expect((await send(forFree.id, { audience: 'free' })).status).toBe(202);
    const preview = await stack.smtp.waitFor(
      (m) => m.to.includes(emails.free) && m.subject.includes('For free readers'),
    );
    expect(preview.html).toContain(PREVIEW);
    expect(preview.html + preview.text).not.toContain('lantern code');
    await until(
      async () =>
        (
          await stack.app.services
            .db('newsletters')
            .whereIn('post_id', [forPaid.id, forFree.id])
            .where({ state: 'sent' })
        ).length === 2,
      'both newsletters sent',
    );
    const sends = await stack.app.services
      .db('newsletter_sends as s')
      .join('newsletter_subscribers as n', 'n.id', 's.subscriber_id')
      .whereIn('s.post_id', [forPaid.id, forFree.id])
      .select('s.post_id', 'n.email');
    expect(sends).toEqual(
      expect.arrayContaining([
        { post_id: forPaid.id, email: emails.paying },
        { post_id: forFree.id, email: emails.free },
      ]),
    );
    expect(sends.filter((r) => r.post_id === forPaid.id).map((r) => r.email)).not.toContain(emails.free);
    expect(sends.filter((r) => r.post_id === forFree.id).map((r) => r.email)).not.toContain(emails.paying);
  });

  it('refuses an unknown audience', async () => {
    const post = await gatedPost('Nobody gets this', 'Nothing here.');
    const res = await send(post.id, { audience: 'everyone' });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('audience must be all, free or paid');
  });
});
