import { anonymiseComments } from '../blog/comments.ts';
import { Conflict, Invalid, Unauthorized } from '../kernel/errors.ts';
import type { RequestContext, SessionUser } from '../kernel/request.ts';
import type { CoreServices } from '../kernel/services.ts';
import type { UploadStorage } from '../media/storage.ts';
import { eraseAccountOrders } from '../orders/erasure.ts';
import { ACCOUNT_MESSAGES, AUTH_MESSAGES } from './messages.ts';
import type { UserRow } from './provider.ts';
import { identityProvider } from './service.ts';

type AccountServices = Pick<CoreServices, 'db' | 'queues' | 'config' | 'publicUrl'> & {
  uploads: UploadStorage;
};

export type Profile = {
  firstName: string;
  lastName: string;
  username: string;
  avatarUrl: string | null;
  /** A Cognito account's username is the pool's: shown, not changed here. */
  usernameEditable: boolean;
};

export async function getProfile(services: AccountServices, userId: number): Promise<Profile> {
  const row: (UserRow & { profile_image_url: string | null }) | undefined = await services
    .db('users')
    .where({ id: userId })
    .first();
  if (!row) throw new Unauthorized('Please sign in first.');
  return {
    firstName: row.first_name ?? '',
    lastName: row.last_name ?? '',
    username: row.username ?? '',
    avatarUrl: row.profile_image_url,
    usernameEditable: row.provider === 'local',
  };
}

/** Saves the name and (for a local account) the username; usernames stay unique without case. */
export async function updateProfile(
  services: AccountServices,
  user: SessionUser,
  input: { firstName: string; lastName: string; username: string },
): Promise<void> {
  const { db } = services;
  const row = await db('users').where({ id: user.id }).first('provider', 'username');
  if (!row) throw new Unauthorized('Please sign in first.');
  const renamed = input.username !== row.username;
  if (renamed && row.provider !== 'local') throw new Conflict(ACCOUNT_MESSAGES.usernameFixed);
  if (
    renamed &&
    (await db('users')
      .whereRaw('lower(username) = lower(?)', [input.username])
      .whereNot({ id: user.id })
      .first('id'))
  )
    throw new Conflict(AUTH_MESSAGES.usernameTaken);
  try {
    await db('users')
      .where({ id: user.id })
      .update({
        first_name: input.firstName || null,
        last_name: input.lastName || null,
        username: input.username,
        updated_at: db.fn.now(),
      });
  } catch (error) {
    // Another account took the name between the check and the write.
    if ((error as { code?: string }).code === '23505') throw new Conflict(AUTH_MESSAGES.usernameTaken);
    throw error;
  }
}

/** The stored file behind an avatar URL of ours, if it is one. */
function uploadedName(url: string | null): string | null {
  return url?.match(/^\/uploads\/([\w.-]+)$/)?.[1] ?? null;
}

/** Sets (or with null removes) the account's avatar; the image it replaces is deleted from storage. */
export async function setAvatar(
  services: AccountServices,
  userId: number,
  url: string | null,
): Promise<void> {
  const previous = await services.db.transaction(async (trx) => {
    const row = await trx('users').where({ id: userId }).forUpdate().first('profile_image_url');
    await trx('users').where({ id: userId }).update({ profile_image_url: url, updated_at: trx.fn.now() });
    return (row?.profile_image_url as string | null | undefined) ?? null;
  });
  const old = uploadedName(previous);
  if (old && previous !== url) await services.uploads.delete(old).catch(() => {});
}

/**
 * Deletes the signed-in account (docs/decisions/013-account-deletion.md): the identity service's
 * copy, the customer's personal fields in every order of the account (the orders stay), the name
 * and address on its comments (the text stays), the account row with its sessions, passkeys and
 * cart, and the avatar file. The session becomes a guest's and a confirmation is mailed.
 */
export async function deleteAccount(
  services: AccountServices,
  state: RequestContext,
  user: SessionUser,
  confirmEmail: string,
): Promise<void> {
  if (user.role === 'admin') throw new Conflict(ACCOUNT_MESSAGES.adminCannotDelete);
  if (confirmEmail.trim().toLowerCase() !== user.email.toLowerCase())
    throw new Invalid(ACCOUNT_MESSAGES.deleteConfirmMismatch);
  const { db } = services;
  const avatar =
    (await db('users').where({ id: user.id }).first('profile_image_url'))?.profile_image_url ?? null;
  await identityProvider(services).deleteAccount?.(state.session.data);
  // Orders first: each erasure is its own change, and a retry after a failure finds them erased.
  await eraseAccountOrders(db, user.id);
  await db.transaction(async (trx) => {
    await anonymiseComments(trx, user.email);
    await trx('users').where({ id: user.id }).delete();
  });
  const file = uploadedName(avatar);
  if (file) await services.uploads.delete(file).catch(() => {});
  await state.session.rotate(null);
  await services.queues.enqueue('mail.send', {
    to: user.email,
    subject: 'Your Penstand account is deleted',
    text: [
      `Your account was deleted at ${new Date().toUTCString()}, as you asked.`,
      'Your comments stay on the posts under the name "Deleted user"; your orders stay in the shop\'s records without your name, address, email or phone.',
      'This is the last mail we send to this address about it.',
    ].join('\n\n'),
    html: `<p>Your account was deleted at ${new Date().toUTCString()}, as you asked.</p><p>Your comments stay on the posts under the name "Deleted user"; your orders stay in the shop's records without your name, address, email or phone.</p><p>This is the last mail we send to this address about it.</p>`,
  });
}
