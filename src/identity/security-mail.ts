import { createHash } from 'node:crypto';
import type { Db } from '../db/knex.ts';
import type { Queues } from '../jobs/queues.ts';
import { describeUserAgent } from './user-agent.ts';

function when(): string {
  return new Date().toUTCString();
}

/** A mail to an account's owner about their account's security, through the queue. */
export async function mailSecurityNotice(
  queues: Queues,
  to: string,
  subject: string,
  lines: string[],
  publicUrl: string,
): Promise<void> {
  const footer = `If this was not you, change your password now and sign out your other sessions: ${publicUrl}/account`;
  await queues.enqueue('mail.send', {
    to,
    subject,
    text: [...lines, '', footer].join('\n'),
    html: [...lines, footer]
      .map((line) => `<p>${line.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`)
      .join(''),
  });
}

/**
 * Remembers the browser an account signed in from; the first sign-in from one it had not used
 * before (not the account's very first) mails its owner.
 */
export async function noteSignInDevice(
  db: Db,
  queues: Queues,
  user: { id: number; email: string },
  context: { userAgent: string | null; clientIp: string; publicUrl: string },
): Promise<'new' | 'known' | 'first'> {
  const device = describeUserAgent(context.userAgent);
  const key = createHash('sha256').update(device).digest('base64url');
  const before = await db('known_devices').where({ user_id: user.id }).count({ n: '*' }).first();
  const inserted = await db('known_devices')
    .insert({ user_id: user.id, device_key: key })
    .onConflict(['user_id', 'device_key'])
    .ignore()
    .returning('device_key');
  if (inserted.length === 0) return 'known';
  if (Number(before?.n ?? 0) === 0) return 'first';
  await mailSecurityNotice(
    queues,
    user.email,
    'New sign-in to your Penstand account',
    [`Your account was signed in from ${device} at ${when()}, from the address ${context.clientIp}.`],
    context.publicUrl,
  );
  return 'new';
}

/** After a password reset by code: its owner hears of it (whoever asked for the code). */
export async function mailPasswordReset(
  db: Db,
  queues: Queues,
  account: { email: string } | { username: string },
  publicUrl: string,
): Promise<void> {
  const user = await db('users')
    .where((w) =>
      'email' in account
        ? w.whereRaw('lower(email) = lower(?)', [account.email])
        : w.whereRaw('lower(username) = lower(?)', [account.username]),
    )
    .first('email');
  if (!user) return;
  await mailSecurityNotice(
    queues,
    user.email,
    'Your Penstand password was reset',
    [
      `The password of your account was reset with a code sent to this address at ${when()}; every session was signed out.`,
    ],
    publicUrl,
  );
}
