import type { Db } from '../db/knex.ts';
import { toCsv } from '../kernel/csv.ts';

/** Every subscriber as CSV: email, status, subscribed and confirmed times. */
export async function exportSubscribersCsv(db: Db): Promise<string> {
  const rows = await db('newsletter_subscribers')
    .select('email', 'status', 'created_at', 'confirmed_at')
    .orderBy('id');
  return toCsv([
    ['email', 'status', 'subscribed_at', 'confirmed_at'],
    ...rows.map((r) => [
      r.email,
      r.status,
      new Date(r.created_at).toISOString(),
      r.confirmed_at ? new Date(r.confirmed_at).toISOString() : '',
    ]),
  ]);
}
