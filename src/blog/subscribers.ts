import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/knex.ts';
import { parseCsv } from '../kernel/csv.ts';

export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed', 'bounced'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const SUBSCRIBER_MESSAGES = {
  deleted: 'Subscriber deleted: the address and its send records are erased',
  notFound: 'Subscriber not found',
  consentRequired: 'Confirm that these readers agreed to receive your newsletter',
  fileRequired: 'Choose a CSV file with one email address per line',
  tooLarge: 'The CSV file may hold at most 50,000 lines',
} as const;

export type SubscriberRow = {
  id: number;
  email: string;
  status: SubscriberStatus;
  createdAt: string;
  confirmedAt: string | null;
};

const PAGE_SIZE = 50;

export async function subscriberCounts(db: Db): Promise<Record<SubscriberStatus, number>> {
  const rows: { status: SubscriberStatus; n: number }[] = await db('newsletter_subscribers')
    .groupBy('status')
    .select('status', db.raw('count(*)::int AS n'));
  const counts = { pending: 0, confirmed: 0, unsubscribed: 0, bounced: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

export async function listSubscribers(
  db: Db,
  filter: { search: string; status: SubscriberStatus | 'all'; page: number },
): Promise<{ subscribers: SubscriberRow[]; pagination: { page: number; pages: number; total: number } }> {
  const base = db('newsletter_subscribers');
  if (filter.status !== 'all') base.where({ status: filter.status });
  const search = filter.search.trim();
  if (search) base.whereILike('email', `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const [{ count }] = await base.clone().count({ count: '*' });
  const total = Number(count);
  const rows = await base
    .clone()
    .orderBy('id', 'desc')
    .limit(PAGE_SIZE)
    .offset((filter.page - 1) * PAGE_SIZE)
    .select('id', 'email', 'status', 'created_at', 'confirmed_at');
  return {
    subscribers: rows.map((r) => ({
      id: r.id,
      email: r.email,
      status: r.status,
      createdAt: r.created_at.toISOString(),
      confirmedAt: r.confirmed_at ? r.confirmed_at.toISOString() : null,
    })),
    pagination: { page: filter.page, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)), total },
  };
}

/** Erases the address and everything sent to it: a reader's right to be forgotten. */
export async function deleteSubscriber(db: Db, id: number): Promise<boolean> {
  return (await db('newsletter_subscribers').where({ id }).delete()) > 0;
}

const email = z.email();
const MAX_LINES = 50_000;

export type ImportReport = { added: number; merged: number; invalid: { line: number; value: string }[] };

/**
 * Confirmed subscribers from another platform's CSV (the address in the first column, or in a
 * column headed "email"). The admin affirms their consent (addConfirmedSubscribers).
 */
export async function importSubscribers(db: Db, csv: string): Promise<ImportReport> {
  const records = parseCsv(csv);
  if (records.length > MAX_LINES) throw new RangeError(SUBSCRIBER_MESSAGES.tooLarge);
  const header = records[0]?.fields.map((c) => c.trim().toLowerCase());
  const column = header ? header.findIndex((c) => c === 'email' || c === 'email address') : -1;
  const invalid: ImportReport['invalid'] = [];
  const addresses: string[] = [];
  for (const record of records.slice(column >= 0 ? 1 : 0)) {
    const raw = record.fields[Math.max(column, 0)]?.trim() ?? '';
    if (!raw && record.fields.every((f) => !f.trim())) continue;
    if (isSubscriberAddress(raw)) addresses.push(raw);
    else invalid.push({ line: record.line, value: raw.slice(0, 100) });
  }
  return { ...(await addConfirmedSubscribers(db, addresses)), invalid };
}

export function isSubscriberAddress(raw: string): boolean {
  return raw.length <= 254 && email.safeParse(raw).success;
}

/**
 * Adds addresses whose consent the admin affirms (another platform's list) as confirmed. An
 * address already here is merged: a pending one becomes confirmed, one that unsubscribed or
 * bounced stays so (their choice stands).
 */
export async function addConfirmedSubscribers(
  db: Db,
  list: string[],
): Promise<{ added: number; merged: number }> {
  const valid = new Map(list.map((address) => [address.toLowerCase(), address]));
  const addresses = [...valid.values()];
  const report = { added: 0, merged: 0 };
  for (let i = 0; i < addresses.length; i += 1_000) {
    const chunk = addresses.slice(i, i + 1_000);
    await db.transaction(async (trx) => {
      const inserted = await trx('newsletter_subscribers')
        .insert(
          chunk.map((address) => ({
            email: address,
            status: 'confirmed',
            token: randomBytes(24).toString('base64url'),
            confirmed_at: trx.fn.now(),
          })),
        )
        .onConflict(trx.raw('(lower(email))'))
        .ignore()
        .returning('id');
      report.added += inserted.length;
      await trx('newsletter_subscribers')
        .whereRaw('lower(email) = ANY(?)', [chunk.map((a) => a.toLowerCase())])
        .where({ status: 'pending' })
        .update({ status: 'confirmed', confirmed_at: trx.fn.now() });
      report.merged += chunk.length - inserted.length;
    });
  }
  return report;
}

/** Confirmed subscribers, and how many confirmed within the last 30 days. */
export async function subscriberGrowth(db: Db): Promise<{ confirmed: number; last30Days: number }> {
  const row = await db('newsletter_subscribers')
    .select(
      db.raw("count(*) FILTER (WHERE status = 'confirmed')::int AS confirmed"),
      db.raw(
        "count(*) FILTER (WHERE status = 'confirmed' AND confirmed_at > now() - interval '30 days')::int AS recent",
      ),
    )
    .first();
  return { confirmed: row?.confirmed ?? 0, last30Days: row?.recent ?? 0 };
}

/** The newsletters sent or going out, newest first, with their counts. */
export async function recentNewsletters(db: Db, limit = 20) {
  const rows = await db('newsletters as n')
    .join('posts as p', 'p.id', 'n.post_id')
    .orderBy('n.created_at', 'desc')
    .limit(limit)
    .select(
      'n.post_id',
      'p.title',
      'n.state',
      'n.total',
      'n.created_at',
      db.raw(
        "(SELECT count(*)::int FROM newsletter_sends s WHERE s.post_id = n.post_id AND s.status = 'sent') AS sent",
      ),
      db.raw(
        "(SELECT count(*)::int FROM newsletter_sends s WHERE s.post_id = n.post_id AND s.status IN ('failed', 'bounced')) AS failed",
      ),
    );
  return rows.map((r) => ({
    postId: r.post_id as number,
    title: r.title as string,
    state: r.state as string,
    total: r.total as number,
    sent: r.sent as number,
    failed: r.failed as number,
    createdAt: (r.created_at as Date).toISOString(),
  }));
}
