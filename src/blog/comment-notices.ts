import type { Db } from '../db/knex.ts';
import { isLinkKey, linkKey } from '../db/site-secret.ts';
import type { Mail, Mailer } from '../jobs/mailer.ts';
import { getBlogSettings } from '../settings/settings.ts';
import { unsubscribeHeaders } from './newsletter-delivery.ts';

export type CommentNotice = { commentId: number; kind: 'published' | 'reply' };

/** `<comment id>.<key>`: stops the mail to that comment's address, and cannot be made for another. */
async function noticeUnsubscribeToken(db: Db, commentId: number): Promise<string> {
  return `${commentId}.${await linkKey(db, `comment-notices:${commentId}`)}`;
}

/**
 * Stops every reply and publication mail to the address of the token's comment (the reader
 * unsubscribes themselves, not one comment); repeating it changes nothing. False for a token we
 * did not make.
 */
export async function unsubscribeCommentNotices(db: Db, token: string): Promise<boolean> {
  const match = /^(\d{1,9})\.([\w-]{32})$/.exec(token);
  if (!match) return false;
  const id = Number(match[1]);
  if (!(await isLinkKey(db, `comment-notices:${id}`, match[2]))) return false;
  const comment = await db('comments').where({ id }).first('email');
  if (!comment) return false;
  await db('comments')
    .whereRaw('lower(email) = lower(?)', [comment.email])
    .where({ notify: true })
    .update({ notify: false });
  return true;
}

/**
 * The notice's mail, or null when there is nothing to tell any more: the comment is no longer
 * public, or the reader has since unsubscribed.
 */
export async function commentNoticeMail(
  db: Db,
  notice: CommentNotice,
  site: { publicUrl: string; fromAddress: string },
): Promise<Mail | null> {
  const comment = await db('comments as c')
    .join('posts as p', 'p.id', 'c.post_id')
    .where({ 'c.id': notice.commentId, 'c.approved': true })
    .first('c.id', 'c.author', 'c.email', 'c.content', 'c.notify', 'c.reply_to_id', 'p.title', 'p.slug');
  if (!comment) return null;
  const recipient =
    notice.kind === 'published'
      ? comment
      : await db('comments').where({ id: comment.reply_to_id }).first('id', 'email', 'notify');
  if (!recipient?.notify) return null;
  const settings = await getBlogSettings(db);
  const link = `${site.publicUrl}/post/${comment.slug}#comment-${comment.id}`;
  const unsubscribeUrl = `${site.publicUrl}/comments/unsubscribe?token=${await noticeUnsubscribeToken(db, recipient.id)}`;
  const [subject, opening] =
    notice.kind === 'published'
      ? [
          `Your comment on “${comment.title}” is published`,
          `Your comment on “${comment.title}” is now on the page:`,
        ]
      : [
          `${comment.author} replied to your comment on “${comment.title}”`,
          `${comment.author} replied to your comment on “${comment.title}”:`,
        ];
  return {
    to: recipient.email,
    subject,
    fromName: settings.title,
    text: [
      opening,
      '',
      comment.content,
      '',
      `Read it on the site: ${link}`,
      '',
      `You get this because you asked to be told when your comment is published or answered. Stop these mails: ${unsubscribeUrl}`,
    ].join('\n'),
    headers: unsubscribeHeaders(unsubscribeUrl, settings.contactEmail || site.fromAddress, recipient.email),
    // A retried job sends under the same Message-ID, which receivers can recognise as a repeat.
    idempotencyKey: `comment-${notice.kind}-${notice.commentId}`,
  };
}

export async function sendCommentNotice(
  services: { db: Db; mailer: Mailer; publicUrl: string },
  notice: CommentNotice,
): Promise<boolean> {
  const mail = await commentNoticeMail(services.db, notice, {
    publicUrl: services.publicUrl,
    fromAddress: services.mailer.fromAddress,
  });
  if (!mail) return false;
  await services.mailer.send(mail);
  return true;
}
