import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';
import { BLOG_MESSAGES } from './messages.ts';

export const newsletterSchema = z.object({
  email: z
    .string({ error: BLOG_MESSAGES.invalidEmail.description })
    .trim()
    .max(254, BLOG_MESSAGES.invalidEmail.description)
    .pipe(z.email(BLOG_MESSAGES.invalidEmail.description)),
});

/**
 * Stores the address as pending and mails a confirmation link (double opt-in). Subscribing
 * again changes nothing and sends nothing: the first mail's link still works.
 */
export async function subscribe(
  db: Db,
  queues: Queues,
  email: string,
  publicUrl: string,
): Promise<'created' | 'existing'> {
  const token = randomBytes(24).toString('base64url');
  const inserted = await db('newsletter_subscribers')
    .insert({ email, token })
    .onConflict(db.raw('(lower(email))'))
    .ignore()
    .returning('id');
  if (!inserted.length) {
    // Unsubscribed or bounced: coming back takes a new double opt-in, with a new link.
    const again = await db('newsletter_subscribers')
      .whereRaw('lower(email) = lower(?)', [email])
      .whereIn('status', ['unsubscribed', 'bounced'])
      .update({ status: 'pending', token, confirmed_at: null, unsubscribed_at: null, bounced_at: null })
      .returning('id');
    if (!again.length) return 'existing';
    inserted.push(again[0]);
  }
  const link = `${publicUrl}/newsletter/confirm?token=${token}`;
  await queues.enqueue(
    'mail.send',
    {
      to: email,
      subject: 'Confirm your subscription',
      text: `Please confirm that you want new posts by email:\n\n${link}\n\nIf you did not ask for this, ignore this mail.`,
      html: `<p>Please confirm that you want new posts by email:</p><p><a href="${link}">Confirm my subscription</a></p><p>If you did not ask for this, ignore this mail.</p>`,
      sensitive: true,
    },
    { jobId: `newsletter-confirm-${inserted[0].id}-${token.slice(0, 8)}` },
  );
  return 'created';
}

export async function confirmSubscription(db: Db, token: string): Promise<boolean> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return false;
  const updated = await db('newsletter_subscribers')
    .where({ token })
    .whereIn('status', ['pending', 'confirmed'])
    .update({ status: 'confirmed', confirmed_at: db.raw('coalesce(confirmed_at, now())') })
    .returning('id');
  return updated.length > 0;
}
