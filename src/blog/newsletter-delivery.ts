import type { Knex } from 'knex';
import type { Db } from '../db/knex.ts';
import { isLinkKey, linkKey } from '../db/site-secret.ts';
import type { Mail, Mailer } from '../jobs/mailer.ts';
import { writeOutbox } from '../jobs/outbox.ts';
import { Conflict, NotFound } from '../kernel/errors.ts';
import { escapeHtml } from '../kernel/escape.ts';
import { type BlogSettings, getBlogSettings } from '../settings/settings.ts';
import { formatPrice } from '../shop/price.ts';
import { activeProductsById, type Product } from '../shop/products.ts';
import { getTier } from '../shop/tiers.ts';
import { PRODUCT_SLOT, productSlotIds } from './markdown.ts';
import { AUDIENCE_RECIPIENTS_SQL, MAILED_WHOLE_SQL, type NewsletterAudience } from './newsletter-audience.ts';

export const NEWSLETTER_MESSAGES = {
  alreadySent: 'This post has already been sent by email.',
  notPublished: 'Only a published or scheduled post can be sent by email.',
  postNotFound: 'Post not found',
  tierNotFound: 'Tier not found',
  notSent: 'This post has not been sent by email.',
  viewProduct: 'View product',
} as const;

const BATCH_SIZE = 50;

export type NewsletterState = 'queued' | 'sending' | 'sent';
export type NewsletterProgress = {
  state: NewsletterState | null;
  total: number;
  sent: number;
  failed: number;
  /** Confirmed subscribers now: whom a send would reach. */
  subscribers: number;
};

export async function confirmedSubscriberCount(db: Db): Promise<number> {
  const [{ count }] = await db('newsletter_subscribers').where({ status: 'confirmed' }).count({ count: '*' });
  return Number(count);
}

export async function newsletterProgress(db: Db, postId: number): Promise<NewsletterProgress> {
  const [row, counts, subscribers] = await Promise.all([
    db('newsletters').where({ post_id: postId }).first('state', 'total'),
    db('newsletter_sends')
      .where({ post_id: postId })
      .select(
        db.raw("count(*) FILTER (WHERE status = 'sent')::int AS sent"),
        db.raw("count(*) FILTER (WHERE status IN ('failed', 'bounced'))::int AS failed"),
      )
      .first(),
    confirmedSubscriberCount(db),
  ]);
  return {
    state: row?.state ?? null,
    total: row?.total ?? 0,
    sent: counts?.sent ?? 0,
    failed: counts?.failed ?? 0,
    subscribers,
  };
}

/**
 * Asks for a post's newsletter: once per post (the table's key refuses a second). A published
 * post starts at once (through the outbox); a scheduled one when it is published.
 */
export async function requestNewsletter(
  db: Db,
  postId: number,
  userId: number | null,
  audience: NewsletterAudience = { audience: 'all' },
): Promise<void> {
  await db.transaction(async (trx) => {
    const post = await trx('posts').where({ id: postId }).first('status');
    if (!post) throw new NotFound(NEWSLETTER_MESSAGES.postNotFound);
    if (post.status !== 'published' && post.status !== 'scheduled')
      throw new Conflict(NEWSLETTER_MESSAGES.notPublished);
    if (audience.audience === 'paid' && audience.tierId && !(await getTier(trx, audience.tierId)))
      throw new NotFound(NEWSLETTER_MESSAGES.tierNotFound);
    const inserted = await trx('newsletters')
      .insert({
        post_id: postId,
        requested_by: userId,
        audience: audience.audience,
        audience_tier: audience.audience === 'paid' ? (audience.tierId ?? null) : null,
      })
      .onConflict('post_id')
      .ignore()
      .returning('post_id');
    if (inserted.length === 0) throw new Conflict(NEWSLETTER_MESSAGES.alreadySent);
    if (post.status === 'published')
      await writeOutbox(trx, 'newsletter.start-due', {}, `newsletter-start-${postId}`);
  });
}

/**
 * Starts every requested newsletter whose post is now published, in one transaction each: the
 * confirmed subscribers of this moment become its recipients and their batches go to the outbox,
 * so a crash leaves either nothing started or everything queued.
 */
export async function startDueNewsletters(db: Db): Promise<number> {
  let started = 0;
  for (;;) {
    const postId = await db.transaction(async (trx) => {
      const due = await trx('newsletters as n')
        .join('posts as p', 'p.id', 'n.post_id')
        .where({ 'n.state': 'queued', 'p.status': 'published' })
        .forUpdate('n')
        .skipLocked()
        .first('n.post_id');
      if (!due) return null;
      await trx.raw(
        `INSERT INTO newsletter_sends (post_id, subscriber_id)
         SELECT n.post_id, r.id FROM newsletters n, LATERAL (${AUDIENCE_RECIPIENTS_SQL}) r
         WHERE n.post_id = ? ORDER BY r.id`,
        [due.post_id],
      );
      const ids: number[] = (
        await trx('newsletter_sends')
          .where({ post_id: due.post_id })
          .orderBy('subscriber_id')
          .select('subscriber_id')
      ).map((r: { subscriber_id: number }) => r.subscriber_id);
      await trx('newsletters')
        .where({ post_id: due.post_id })
        .update({
          state: ids.length ? 'sending' : 'sent',
          total: ids.length,
          started_at: trx.fn.now(),
          ...(ids.length ? {} : { finished_at: trx.fn.now() }),
        });
      await queueBatches(trx, due.post_id, ids);
      return due.post_id as number;
    });
    if (postId === null) return started;
    started++;
  }
}

async function queueBatches(trx: Knex.Transaction, postId: number, ids: number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH_SIZE) {
    const batch = ids.slice(i, i + BATCH_SIZE);
    await writeOutbox(
      trx,
      'newsletter.batch',
      { postId, subscriberIds: batch },
      `newsletter-${postId}-${batch[0]}`,
    );
  }
}

/** Where the mail's links point, and the currency its product cards are priced in. */
type MailSite = { publicUrl: string; currency: string };

/** A post as its newsletter shows it. */
type NewsletterPost = {
  id: number;
  title: string;
  slug: string;
  excerpt: string;
  content_html: string;
  featured_image: string | null;
  published_at: Date | null;
};

/** An absolute address for a site-relative one (mail is read away from the site). */
function absoluteUrl(url: string, publicUrl: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${publicUrl}${url}` : url;
}

/** The post's products, and how the mail addresses them. */
export type MailProducts = { products: Map<number, Product>; currency: string; publicUrl: string };

const productUrl = (product: Product, publicUrl: string) => `${publicUrl}/product/${product.id}`;

/**
 * A product card as mail clients draw it: a table with inline styles, the image, name and price
 * linked to the product page, and a link styled as the button (mail has no forms to add to a cart).
 */
function mailProductCard(product: Product, { currency, publicUrl }: MailProducts): string {
  const url = productUrl(product, publicUrl);
  const image = product.image
    ? `<td width="112" style="padding:12px 0 12px 12px;vertical-align:top"><a href="${url}"><img src="${escapeHtml(absoluteUrl(product.image, publicUrl))}" alt="" width="96" height="96" style="display:block;width:96px;height:96px;object-fit:cover;border-radius:6px"></a></td>`
    : '';
  return `<table role="presentation" class="nl-media" width="100%" cellpadding="0" cellspacing="0" style="margin:16px 0;border:1px solid #e5e7eb;border-radius:8px"><tr>${image}<td style="padding:12px 16px;vertical-align:top;font-family:Arial,sans-serif"><p style="margin:0 0 4px;font-size:17px;font-weight:bold"><a href="${url}" style="color:#111827;text-decoration:none">${escapeHtml(product.name)}</a></p><p style="margin:0 0 12px;font-size:16px">${formatPrice(product.price, currency)}</p><a href="${url}" class="nl-button" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:8px 14px;border-radius:6px;text-decoration:none;font-size:14px">${NEWSLETTER_MESSAGES.viewProduct}</a></td></tr></table>`;
}

/** Borders and padding inline: mail clients drop the site's stylesheet, and many a <style>. */
const MAIL_TABLE_STYLE =
  'border-collapse:collapse;margin:0 0 16px;font-family:Arial,sans-serif;font-size:15px';
const MAIL_CELL_STYLE = 'border:1px solid #d1d5db;padding:6px 10px;vertical-align:top';

/**
 * The post's sanitized HTML made fit for mail clients: site-relative links and images absolute,
 * product slots filled with mail cards, tables ruled, and video and audio players (which no mail
 * client plays) turned into linked thumbnails of the video, or of the podcast's cover, that open
 * the post.
 */
export function mailBody(html: string, postUrl: string, shop: MailProducts): string {
  const { publicUrl } = shop;
  return (
    html
      .replace(/(src|href)="\/(?!\/)/g, `$1="${publicUrl}/`)
      // Footnote references and back-links open the post at the note: few mail clients follow a fragment alone.
      .replace(/href="#/g, `href="${postUrl}#`)
      .replace(/<img /g, '<img style="max-width:100%;height:auto" ')
      .replace(/<table>/g, `<table style="${MAIL_TABLE_STYLE}">`)
      .replace(/<(th|td)(?=[ >])/g, `<$1 style="${MAIL_CELL_STYLE}"`)
      .replace(PRODUCT_SLOT, (_, id: string) => {
        const product = shop.products.get(Number(id));
        return product ? mailProductCard(product, shop) : '';
      })
      .replace(
        /<div class="video-embed"><iframe src="https:\/\/www\.youtube-nocookie\.com\/embed\/([A-Za-z0-9_-]{11})"[^>]*><\/iframe><\/div>/g,
        (_, id: string) =>
          `<p><a href="https://www.youtube.com/watch?v=${id}"><img src="https://i.ytimg.com/vi/${id}/hqdefault.jpg" alt="Watch the video" width="560" style="max-width:100%;height:auto;border-radius:8px"></a></p>`,
      )
      .replace(/<iframe[\s\S]*?<\/iframe>/g, `<p><a href="${postUrl}">Watch on the site</a></p>`)
      .replace(
        /<audio[\s\S]*?<\/audio>/g,
        `<table role="presentation" class="nl-media" cellpadding="0" cellspacing="0" style="margin:16px 0;border:1px solid #e5e7eb;border-radius:8px"><tr><td style="padding:12px"><a href="${postUrl}"><img src="${publicUrl}/podcast-cover.png" alt="Podcast cover" width="96" height="96" style="display:block;border-radius:6px"></a></td><td style="padding:12px 16px 12px 4px;font-family:Arial,sans-serif;font-size:16px"><a href="${postUrl}" style="color:#1d4ed8;font-weight:bold;text-decoration:none">&#9654; Listen on the site</a></td></tr></table>`,
      )
      .replace(/<video[\s\S]*?<\/video>/g, `<p><a href="${postUrl}">Watch on the site</a></p>`)
  );
}

/**
 * Dark-mode clients that honour prefers-color-scheme (Apple Mail, iOS, Outlook for Mac) get
 * these colours over the inline light ones (hence !important); the others invert by themselves.
 */
const DARK_MODE_STYLE = `<style>
:root{color-scheme:light dark;supported-color-schemes:light dark}
@media (prefers-color-scheme: dark){
.nl-page{background:#111827 !important}
.nl-card{background:#1f2937 !important;color:#f3f4f6 !important}
.nl-card a{color:#93c5fd !important}
.nl-card h1 a{color:#f9fafb !important}
.nl-muted,.nl-card .nl-muted a{color:#d1d5db !important}
.nl-card a.nl-button{background:#3b82f6 !important;color:#ffffff !important}
.nl-media{border-color:#4b5563 !important}
}
</style>`;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

/** One pass, so an escaped entity ('&amp;lt;') stays the text it was ('&lt;'). */
const decodeEntities = (text: string) =>
  text.replace(/&(#\d+|#x[0-9a-f]+|amp|lt|gt|quot);/gi, (entity, name: string) =>
    name.startsWith('#')
      ? String.fromCodePoint(Number(name[1] === 'x' || name[1] === 'X' ? `0${name.slice(1)}` : name.slice(1)))
      : (NAMED_ENTITIES[name.toLowerCase()] ?? entity),
  );

/** An attribute's value as it stands in the HTML, entities and all (decoded with the rest). */
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? '';

/**
 * Plain text of the post for the text/plain part: paragraphs kept, tags dropped, footnote
 * references as [1], and what the
 * HTML part shows as a picture or a card (images, videos, podcasts, products) kept as a line with
 * its link, so a text-only reader knows it is there and can open it.
 */
export function plainText(html: string, postUrl: string, shop: MailProducts): string {
  const line = (text: string) => `\n${text}\n`;
  return decodeEntities(
    html
      .replace(/<sup><a [^>]*data-footnote-ref[^>]*>(\d+)<\/a><\/sup>/g, '[$1]')
      .replace(/\s*<a [^>]*data-footnote-backref[^>]*>[^<]*<\/a>/g, '')
      .replace(PRODUCT_SLOT, (_, id: string) => {
        const product = shop.products.get(Number(id));
        return product
          ? line(
              `[Product: ${escapeHtml(product.name)}, ${formatPrice(product.price, shop.currency)}] ${productUrl(product, shop.publicUrl)}`,
            )
          : '';
      })
      .replace(
        /<iframe[^>]*\ssrc="https:\/\/www\.youtube-nocookie\.com\/embed\/([A-Za-z0-9_-]{11})"[\s\S]*?<\/iframe>/g,
        (_, id: string) => line(`[Video] https://www.youtube.com/watch?v=${id}`),
      )
      .replace(/<(iframe|video)[\s\S]*?<\/\1>/g, () => line(`[Video] ${postUrl}`))
      .replace(/<audio[\s\S]*?<\/audio>/g, () => line(`[Podcast] ${postUrl}`))
      .replace(/<img\s[^>]*>/g, (tag) => {
        const alt = attribute(tag, 'alt').trim();
        return line(`[Image${alt ? `: ${alt}` : ''}] ${absoluteUrl(attribute(tag, 'src'), shop.publicUrl)}`);
      })
      // A table row on one line, its cells parted by ' | '.
      .replace(/<\/t[hd]>\s*(?=<t[hd][\s>])/g, ' | ')
      .replace(/<tr>\s*/g, '')
      .replace(/<(br|\/p|\/h[1-6]|\/li|\/blockquote|\/pre|\/tr|\/figure)>/g, '\n')
      .replace(/<li>/g, '• ')
      .replace(/<[^>]+>/g, ''),
  )
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function unsubscribeKey(db: Db, subscriberId: number): Promise<string> {
  return linkKey(db, `unsubscribe:${subscriberId}`);
}

/** `<id>.<key>`: opens only this subscriber's unsubscribe, and cannot be made for another. */
export async function unsubscribeToken(db: Db, subscriberId: number): Promise<string> {
  return `${subscriberId}.${await unsubscribeKey(db, subscriberId)}`;
}

/** Unsubscribes the token's address; repeating it changes nothing. False for a token we did not make. */
export async function unsubscribeByToken(db: Db, token: string): Promise<boolean> {
  const match = /^(\d{1,9})\.([\w-]{32})$/.exec(token);
  if (!match) return false;
  const id = Number(match[1]);
  if (!(await isLinkKey(db, `unsubscribe:${id}`, match[2]))) return false;
  const row = await db('newsletter_subscribers').where({ id }).first('id');
  if (!row) return false;
  await db('newsletter_subscribers')
    .where({ id })
    .whereIn('status', ['pending', 'confirmed'])
    .update({ status: 'unsubscribed', unsubscribed_at: db.fn.now() });
  return true;
}

/**
 * RFC 8058 one-click unsubscribe headers: mailbox providers POST "List-Unsubscribe=One-Click" to
 * the https URL. The mailto is for clients that unsubscribe by mail; Penstand does not read that
 * mailbox: whoever does finds the reader's address in the subject and their own unsubscribe link
 * in the body, and opens it.
 */
export function unsubscribeHeaders(
  unsubscribeUrl: string,
  mailbox: string,
  reader: string,
): Record<string, string> {
  const mailto = `mailto:${mailbox}?subject=${encodeURIComponent(`Unsubscribe ${reader}`)}&body=${encodeURIComponent(`Please unsubscribe me: ${unsubscribeUrl}`)}`;
  return {
    'List-Unsubscribe': `<${unsubscribeUrl}>, <${mailto}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

export async function newsletterMail(
  db: Db,
  post: NewsletterPost,
  settings: BlogSettings,
  site: MailSite & { fromAddress: string },
  to: { id: number; email: string } | { test: string },
): Promise<Mail> {
  const { publicUrl } = site;
  const postUrl = `${publicUrl}/post/${post.slug}`;
  const shop: MailProducts = {
    products: await activeProductsById(db, productSlotIds(post.content_html)),
    currency: site.currency,
    publicUrl,
  };
  const unsubscribeUrl =
    'id' in to ? `${publicUrl}/newsletter/unsubscribe?token=${await unsubscribeToken(db, to.id)}` : null;
  const date = (post.published_at ?? new Date()).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
  const image = post.featured_image
    ? `<img src="${escapeHtml(absoluteUrl(post.featured_image, publicUrl))}" alt="" width="600" style="max-width:100%;height:auto;border-radius:8px;margin:0 0 16px">`
    : '';
  const footer = unsubscribeUrl
    ? `<p class="nl-muted" style="font-size:13px;color:#6b7280">You get this because you subscribed to ${escapeHtml(settings.title)}. <a href="${unsubscribeUrl}" style="color:#6b7280">Unsubscribe</a></p>`
    : '<p class="nl-muted" style="font-size:13px;color:#6b7280">A test of this newsletter: subscribers get their own unsubscribe link here.</p>';
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"><title>${escapeHtml(post.title)}</title>${DARK_MODE_STYLE}</head>
<body class="nl-page" style="margin:0;padding:0;background:#f3f4f6">
<table role="presentation" class="nl-page" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" class="nl-card" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;color:#111827;border-radius:12px;font-family:Georgia,'Times New Roman',serif;font-size:17px;line-height:1.6"><tr><td style="padding:28px">
<p class="nl-muted" style="margin:0 0 8px;font-family:Arial,sans-serif;font-size:14px;color:#6b7280">${escapeHtml(settings.title)}</p>
<h1 style="margin:0 0 8px;font-size:28px;line-height:1.25"><a href="${postUrl}" style="color:#111827;text-decoration:none">${escapeHtml(post.title)}</a></h1>
<p class="nl-muted" style="margin:0 0 20px;font-family:Arial,sans-serif;font-size:14px;color:#6b7280">${escapeHtml(settings.authorName)} · ${date}</p>
${image}
${mailBody(post.content_html, postUrl, shop)}
<p style="margin:24px 0"><a href="${postUrl}" class="nl-button" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 18px;border-radius:8px;text-decoration:none;font-family:Arial,sans-serif">Read on the site</a></p>
${footer}
</td></tr></table></td></tr></table></body></html>`;
  const text = [
    post.title,
    `${settings.authorName} · ${date}`,
    '',
    plainText(post.content_html, postUrl, shop),
    '',
    `Read on the site: ${postUrl}`,
    ...(unsubscribeUrl ? ['', `Unsubscribe: ${unsubscribeUrl}`] : []),
  ].join('\n');
  return {
    to: 'email' in to ? to.email : to.test,
    subject: 'id' in to ? post.title : `[Test] ${post.title}`,
    fromName: settings.title,
    text,
    html,
    ...(unsubscribeUrl && 'id' in to
      ? {
          headers: unsubscribeHeaders(unsubscribeUrl, settings.contactEmail || site.fromAddress, to.email),
          idempotencyKey: `newsletter-${post.id}-${to.id}`,
        }
      : {}),
  };
}

async function loadPost(db: Db, postId: number): Promise<NewsletterPost | undefined> {
  return db('posts as p')
    .leftJoin('newsletters as n', 'n.post_id', 'p.id')
    .where('p.id', postId)
    .first(
      'p.id',
      'p.title',
      'p.slug',
      'p.excerpt',
      // A gated post is mailed whole only to an audience that may read it; a test to the admin and
      // every other audience get its public preview, with the link to the post.
      db.raw(`CASE WHEN ${MAILED_WHOLE_SQL} THEN p.content_html ELSE p.preview_html END AS content_html`),
      'p.featured_image',
      'p.published_at',
    );
}

/** 'Send a test to me': only to the signed-in admin, as often as asked, never recorded. */
export async function sendTestNewsletter(
  db: Db,
  mailer: Mailer,
  site: MailSite,
  postId: number,
  email: string,
): Promise<void> {
  const post = await loadPost(db, postId);
  if (!post) throw new NotFound(NEWSLETTER_MESSAGES.postNotFound);
  await mailer.send(
    await newsletterMail(
      db,
      post,
      await getBlogSettings(db),
      { ...site, fromAddress: mailer.fromAddress },
      { test: email },
    ),
  );
}

/** When this process may send its next newsletter mail (see waitForSendSlot). */
let nextSendSlot = 0;

/**
 * Paces this process's newsletter mails at the configured rate on one schedule across batches,
 * so the time spent between two batches is made up (by at most a second's worth of mails at once)
 * and the rate holds over a whole send.
 */
async function waitForSendSlot(pauseMs: number): Promise<void> {
  const now = Date.now();
  nextSendSlot = Math.max(nextSendSlot, now - 1000);
  const wait = nextSendSlot - now;
  nextSendSlot += pauseMs;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** An SMTP answer in the 5xx range: the address will not take mail (unknown user, rejected). */
function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * Sends one batch: each recipient still 'queued' is locked, mailed and marked in one transaction,
 * so a retried or duplicated batch never mails anyone twice. The one window left: a worker that
 * dies after the SMTP server accepted a mail but before the commit leaves the row 'queued', and
 * the retry sends that mail again under the same Message-ID (the mailer's idempotency key), which
 * receivers can recognise as a duplicate. An 'attempting' row written first would not close it:
 * the retry could not tell whether that mail had gone. A 5xx answer marks the address
 * bounced (and it is never mailed again); any other failure fails the job, which is retried
 * with back-off, unless this is its last attempt, when the recipient is marked failed.
 */
export async function sendNewsletterBatch(
  services: { db: Db; mailer: Mailer; ratePerSecond: number } & MailSite,
  job: { postId: number; subscriberIds: number[] },
  lastAttempt: boolean,
): Promise<{ sent: number; bounced: number; failed: number; skipped: number }> {
  const { db, mailer, publicUrl, currency } = services;
  const outcome = { sent: 0, bounced: 0, failed: 0, skipped: 0 };
  const post = await loadPost(db, job.postId);
  if (!post) return outcome;
  const settings = await getBlogSettings(db);
  const pause = 1000 / services.ratePerSecond;
  for (const subscriberId of job.subscriberIds) {
    await waitForSendSlot(pause);
    const result = await db.transaction(async (trx) => {
      const row = await trx('newsletter_sends')
        .where({ post_id: job.postId, subscriber_id: subscriberId, status: 'queued' })
        .forUpdate()
        .first('subscriber_id');
      if (!row) return null;
      const mark = (status: string, error: string | null = null) =>
        trx('newsletter_sends')
          .where({ post_id: job.postId, subscriber_id: subscriberId })
          .update({ status, error, sent_at: status === 'sent' ? trx.fn.now() : null });
      const subscriber = await trx('newsletter_subscribers')
        .where({ id: subscriberId })
        .first('email', 'status');
      if (subscriber?.status !== 'confirmed') {
        await mark('skipped');
        return 'skipped' as const;
      }
      try {
        await mailer.send(
          await newsletterMail(
            db,
            post,
            settings,
            { publicUrl, currency, fromAddress: mailer.fromAddress },
            { id: subscriberId, email: subscriber.email },
          ),
        );
      } catch (error) {
        const message = String((error as Error).message).slice(0, 500);
        if (isPermanentFailure(error)) {
          await mark('bounced', message);
          await trx('newsletter_subscribers')
            .where({ id: subscriberId })
            .update({ status: 'bounced', bounced_at: trx.fn.now() });
          return 'bounced' as const;
        }
        if (!lastAttempt) throw error;
        await mark('failed', message);
        return 'failed' as const;
      }
      await mark('sent');
      return 'sent' as const;
    });
    if (result !== null) outcome[result]++;
  }
  await db('newsletters')
    .where({ post_id: job.postId, state: 'sending' })
    .whereNotExists(db('newsletter_sends').where({ post_id: job.postId, status: 'queued' }))
    .update({ state: 'sent', finished_at: db.fn.now() });
  return outcome;
}
