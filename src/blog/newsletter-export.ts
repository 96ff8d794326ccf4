import type { Db } from '../db/knex.ts';

/**
 * One CSV cell. Cells a spreadsheet would read as a formula (= + - @, and tab or carriage
 * return that some programs strip first) get a leading quote; quotes are doubled.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(rows: readonly (readonly string[])[]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

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
