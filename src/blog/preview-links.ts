import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/knex.ts';

/** How long a shared preview link works. */
export const PREVIEW_LINK_DAYS = 14;
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/**
 * A new secret link for a post's preview, replacing any earlier one: 256 random bits, of which
 * only the hash is stored. Null when there is no such post.
 */
export async function createPreviewLink(
  db: Db,
  publicUrl: string,
  postId: number,
  createdBy: number | null,
): Promise<{ url: string; expiresAt: string } | null> {
  if (!(await db('posts').where({ id: postId }).first('id'))) return null;
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expiresAt = new Date(Date.now() + PREVIEW_LINK_DAYS * 86_400_000);
  await db('post_preview_links')
    .insert({ post_id: postId, token_hash: hashOf(token), created_by: createdBy, expires_at: expiresAt })
    .onConflict('post_id')
    .merge(['token_hash', 'created_by', 'created_at', 'expires_at']);
  return { url: `${publicUrl}/preview/${token}`, expiresAt: expiresAt.toISOString() };
}

/** Revokes a post's preview link; false when it had none. */
export async function revokePreviewLink(db: Db, postId: number): Promise<boolean> {
  return (await db('post_preview_links').where({ post_id: postId }).delete()) > 0;
}

/** The post a live preview token opens, or null (malformed, unknown, revoked or expired). */
export async function previewPostId(db: Db, token: string): Promise<number | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const hash = hashOf(token);
  const row = await db('post_preview_links')
    .where({ token_hash: hash })
    .where('expires_at', '>', db.fn.now())
    .first('post_id', 'token_hash');
  // The index finds the row by hash; the stored hash is still compared in constant time.
  return row && timingSafeEqual(row.token_hash, hash) ? row.post_id : null;
}
