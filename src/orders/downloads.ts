import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { Db } from '../db/knex.ts';
import { writeOutbox } from '../jobs/outbox.ts';
import { Conflict } from '../kernel/errors.ts';
import { updateShopSettings } from '../settings/settings.ts';
import type { OrderState } from './domain.ts';

type Executor = Db | Knex.Transaction;

/** Until the writer sets them (Settings → Payments): 30 days, 5 downloads of each file. */
export const DEFAULT_DOWNLOAD_DAYS = 30;
export const DEFAULT_DOWNLOAD_LIMIT = 5;
export const DOWNLOAD_DAYS_RANGE = { min: 1, max: 3650 } as const;
export const DOWNLOAD_LIMIT_RANGE = { min: 1, max: 1000 } as const;

export const DOWNLOAD_MESSAGES = {
  expired: 'This download link has expired',
  limitReached: 'Download limit reached',
  revoked: 'This download link is no longer valid: the order was refunded or cancelled',
  notFound: 'Download not found',
  nothingToSend: 'This order has no download links that are still valid',
} as const;

export type DownloadSettings = { days: number; limit: number };

export const DOWNLOAD_SETTINGS_MESSAGES = {
  saved: 'Download settings saved',
  days: `Download days must be a whole number from ${DOWNLOAD_DAYS_RANGE.min} to ${DOWNLOAD_DAYS_RANGE.max}`,
  limit: `Download limit must be a whole number from ${DOWNLOAD_LIMIT_RANGE.min} to ${DOWNLOAD_LIMIT_RANGE.max}`,
} as const;

const wholeIn = (range: { min: number; max: number }, message: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, message)
    .transform(Number)
    .refine((n) => n >= range.min && n <= range.max, message);

/** The one schema of the Downloads settings form; applies to links granted from then on. */
export const downloadSettingsSchema = z.object({
  downloadDays: wholeIn(DOWNLOAD_DAYS_RANGE, DOWNLOAD_SETTINGS_MESSAGES.days),
  downloadLimit: wholeIn(DOWNLOAD_LIMIT_RANGE, DOWNLOAD_SETTINGS_MESSAGES.limit),
});

export function updateDownloadSettings(
  db: Db,
  input: z.output<typeof downloadSettingsSchema>,
): Promise<void> {
  return updateShopSettings(db, { download_days: input.downloadDays, download_limit: input.downloadLimit });
}

export async function downloadSettings(db: Executor): Promise<DownloadSettings> {
  const row = await db('blog_settings').where({ id: 1 }).first('download_days', 'download_limit');
  return {
    days: row?.download_days ?? DEFAULT_DOWNLOAD_DAYS,
    limit: row?.download_limit ?? DEFAULT_DOWNLOAD_LIMIT,
  };
}

/** One grant as the customer, the mail and the admin see it. */
export type DownloadGrant = {
  id: number;
  /** Relative: `/downloads/<token>`; the API and the mail put the site's origin in front. */
  path: string;
  name: string;
  fileName: string;
  size: number;
  downloads: number;
  limit: number;
  expiresAt: string;
  revoked: boolean;
};

type GrantRow = {
  id: number;
  token: string;
  name: string;
  file_name: string;
  size_bytes: string;
  downloads: number;
  download_limit: number;
  expires_at: Date;
  revoked_at: Date | null;
};

const linkToken = (row: { id: number; token: string }) => `${row.id}.${row.token}`;

/**
 * Grants a download of every file of every digital line, once: when the order becomes paid.
 * Returns how many were created (none for an order without files, or granted before).
 */
export async function grantDownloads(
  trx: Knex.Transaction,
  orderId: number,
  state: OrderState,
): Promise<number> {
  const lines = state.placed?.items.filter((line) => line.productId !== null) ?? [];
  if (lines.length === 0) return 0;
  const files: { id: number; product_id: number }[] = await trx('product_files')
    .whereIn(
      'product_id',
      lines.map((line) => line.productId as number),
    )
    .orderBy('id')
    .select('id', 'product_id');
  if (files.length === 0) return 0;
  const { days, limit } = await downloadSettings(trx);
  const expiresAt = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
  const rows = lines.flatMap((line) =>
    files
      .filter((file) => file.product_id === line.productId)
      .map((file) => ({
        order_id: orderId,
        order_item_id: line.lineId,
        product_file_id: file.id,
        // 192 random bits; the link also carries the row id, so it is found without comparing tokens in SQL.
        token: randomBytes(24).toString('base64url'),
        expires_at: expiresAt,
        download_limit: limit,
      })),
  );
  const created = await trx('download_grants')
    .insert(rows)
    .onConflict(['order_item_id', 'product_file_id'])
    .ignore()
    .returning('id');
  return created.length;
}

/** A full refund or a cancellation ends the order's links. */
export async function revokeDownloads(trx: Knex.Transaction, orderId: number): Promise<void> {
  await trx('download_grants')
    .where({ order_id: orderId })
    .whereNull('revoked_at')
    .update({ revoked_at: trx.fn.now() });
}

export async function listDownloads(db: Executor, orderId: number): Promise<DownloadGrant[]> {
  const rows: GrantRow[] = await db('download_grants as g')
    .join('product_files as f', 'f.id', 'g.product_file_id')
    .where('g.order_id', orderId)
    .orderBy('g.id')
    .select(
      'g.id',
      'g.token',
      'f.name',
      'f.file_name',
      'f.size_bytes',
      'g.downloads',
      'g.download_limit',
      'g.expires_at',
      'g.revoked_at',
    );
  return rows.map((row) => ({
    id: row.id,
    path: `/downloads/${linkToken(row)}`,
    name: row.name,
    fileName: row.file_name,
    size: Number(row.size_bytes),
    downloads: row.downloads,
    limit: row.download_limit,
    expiresAt: row.expires_at.toISOString(),
    revoked: row.revoked_at !== null,
  }));
}

export type GrantForDownload = {
  id: number;
  storageName: string;
  fileName: string;
  contentType: string;
  size: number;
  downloads: number;
  limit: number;
  expiresAt: Date;
  revoked: boolean;
};

/** The grant a link names, or null: an unknown id and a wrong token look the same. */
export async function findGrant(db: Db, linkToken: string): Promise<GrantForDownload | null> {
  const match = /^(\d{1,9})\.([A-Za-z0-9_-]{32})$/.exec(linkToken);
  if (!match) return null;
  const row = await db('download_grants as g')
    .join('product_files as f', 'f.id', 'g.product_file_id')
    .where('g.id', Number(match[1]))
    .first(
      'g.id',
      'g.token',
      'f.storage_name',
      'f.file_name',
      'f.content_type',
      'f.size_bytes',
      'g.downloads',
      'g.download_limit',
      'g.expires_at',
      'g.revoked_at',
    );
  if (!row) return null;
  const given = Buffer.from(match[2]);
  const expected = Buffer.from(row.token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return {
    id: row.id,
    storageName: row.storage_name,
    fileName: row.file_name,
    contentType: row.content_type,
    size: Number(row.size_bytes),
    downloads: row.downloads,
    limit: row.download_limit,
    expiresAt: row.expires_at,
    revoked: row.revoked_at !== null,
  };
}

/**
 * Takes one of the grant's downloads before its bytes are sent, in one conditional statement, so
 * parallel requests cannot pass the limit together. False when none is left.
 */
export async function takeDownload(db: Db, grantId: number): Promise<boolean> {
  const taken = await db('download_grants')
    .where({ id: grantId })
    .where('downloads', '<', db.ref('download_limit'))
    .increment('downloads', 1)
    .returning('id');
  return taken.length > 0;
}

/** Gives back a download taken for a response that did not reach its last byte. */
export async function giveBackDownload(db: Db, grantId: number): Promise<void> {
  await db('download_grants').where({ id: grantId }).where('downloads', '>', 0).decrement('downloads', 1);
}

/** The admin's reset: the grant's count back to 0 (its expiry unchanged). 404-worthy when absent. */
export async function resetDownloadLimit(db: Db, orderId: number, grantId: number): Promise<boolean> {
  const updated = await db('download_grants')
    .where({ id: grantId, order_id: orderId })
    .update({ downloads: 0 });
  return updated > 0;
}

const mailDate = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** The order's live links for the downloads mail, with what is left of each. */
export async function downloadMailLinks(
  db: Db,
  publicUrl: string,
  orderId: number,
): Promise<{ label: string; url: string; note: string }[]> {
  const now = Date.now();
  return (await listDownloads(db, orderId))
    .filter((g) => !g.revoked && Date.parse(g.expiresAt) > now && g.downloads < g.limit)
    .map((g) => ({
      label: g.name,
      url: `${publicUrl}${g.path}`,
      note: `${g.limit - g.downloads} of ${g.limit} downloads left, until ${mailDate.format(new Date(g.expiresAt))}`,
    }));
}

/** The admin's re-send: the downloads mail again, with the links as they are now. 409 without live links. */
export async function resendDownloads(db: Db, orderId: number): Promise<void> {
  const live = await db('download_grants')
    .where({ order_id: orderId })
    .whereNull('revoked_at')
    .where('expires_at', '>', db.fn.now())
    .first('id');
  if (!live) throw new Conflict(DOWNLOAD_MESSAGES.nothingToSend);
  // Its own key, so the mail is recorded once more rather than taken for the first one.
  const key = `downloads-${Date.now()}`;
  await db.transaction((trx) =>
    writeOutbox(trx, 'orders.send-mail', { orderId, kind: 'downloads', key }, `order-${orderId}-${key}`),
  );
}
