import { readFile } from 'node:fs/promises';
import { addConfirmedSubscribers, isSubscriberAddress } from '../blog/subscribers.ts';
import type { Db } from '../db/knex.ts';
import { parseCsv } from '../kernel/csv.ts';
import { ImportError } from './types.ts';

/*
 * Lists of readers other platforms export as CSV, inside an export (Substack's zip) or on their own:
 * - Ghost's members export (Members → Export): id, email, name, note, subscribed_to_emails,
 *   complimentary_plan, stripe_customer_id, created_at, deleted_at, labels, tiers;
 * - Substack's subscriber list (email_list.<publication>.csv): email, active_subscription, expiry,
 *   email_disabled, prefer_digests, created_at;
 * - any list with an email column (Mailchimp's, a spreadsheet's).
 * Facts from Ghost's own members-csv package and its migration tools' fixtures (TryGhost/migrate).
 */

export type CsvRow = { line: number; row: Record<string, string> };

/** The rows of a CSV file with a header, as column (lower case) → value; blank rows left out. */
export function csvRows(csv: string): { columns: string[]; rows: CsvRow[] } {
  const [header, ...rest] = parseCsv(csv);
  const columns = header?.fields.map((c) => c.trim().toLowerCase()) ?? [];
  const rows = rest
    .filter((record) => record.fields.some((f) => f.trim()))
    .map((record) => ({
      line: record.line,
      row: Object.fromEntries(columns.map((c, i) => [c, record.fields[i]?.trim() ?? ''])),
    }));
  return { columns, rows };
}

export type SubscriberImport = {
  added: number;
  merged: number;
  /** Readers who had turned the old site's emails off: their choice stands, they are not added. */
  optedOut: number;
  /** Deleted members, and addresses Substack replaced after a deletion request. */
  deleted: number;
  /** Subscribers paying or complimentary there (the members import says which were linked or comped). */
  paid: number;
  invalid: { line: number; value: string }[];
};

const yes = (value: string | undefined) => value?.toLowerCase() === 'true';

const deleted = (row: Record<string, string>) =>
  !!row.deleted_at || /@deletion-request\.substack\.com$/i.test(row.email);

/** The rows that are members: not deleted, with an address (opted out of emails or not). */
export function memberRows(list: CsvRow[]): CsvRow[] {
  return list.filter(({ row }) => !deleted(row) && isSubscriberAddress(row.email));
}

/** Each reader who receives the newsletter on the old site becomes a confirmed subscriber: they opted in there. */
export async function importMemberList(db: Db, list: CsvRow[]): Promise<SubscriberImport> {
  const report: SubscriberImport = { added: 0, merged: 0, optedOut: 0, deleted: 0, paid: 0, invalid: [] };
  const addresses: string[] = [];
  for (const { line, row } of list) {
    if (deleted(row)) report.deleted++;
    else if (yes(row.email_disabled) || row.subscribed_to_emails?.toLowerCase() === 'false')
      report.optedOut++;
    else if (isSubscriberAddress(row.email)) {
      addresses.push(row.email);
      if (yes(row.active_subscription) || yes(row.complimentary_plan) || row.stripe_customer_id)
        report.paid++;
    } else report.invalid.push({ line, value: row.email.slice(0, 100) });
  }
  Object.assign(report, await addConfirmedSubscribers(db, addresses));
  return report;
}

/** The first line of a CSV file that names an email column: a member or subscriber list. */
export function isMemberListHeader(firstLine: string): boolean {
  const [header] = parseCsv(firstLine);
  return !!header?.fields.some((c) => ['email', 'email address'].includes(c.trim().toLowerCase()));
}

const MAX_ROWS = 50_000;

/** A member or subscriber list on its own, checked whole before anything is written. */
export async function readMemberList(path: string): Promise<CsvRow[]> {
  const { columns, rows } = csvRows(await readFile(path, 'utf8'));
  if (rows.length > MAX_ROWS)
    throw new ImportError(`The member list has more than ${MAX_ROWS} rows. Nothing was imported.`);
  // 'Email Address' (Mailchimp's heading) is read as 'email'.
  const email = columns.indexOf('email') >= 0 ? 'email' : 'email address';
  return rows.map(({ line, row }) => ({ line, row: { ...row, email: row[email] ?? '' } }));
}
