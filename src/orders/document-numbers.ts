import type { Knex } from 'knex';
import type { OrderEvent } from './domain.ts';

/** The series of numbered documents: invoices (2026-0001) and credit notes (CN-2026-0001). */
export const DOCUMENT_SERIES = {
  invoice: (year: number, n: number) => `${year}-${String(n).padStart(4, '0')}`,
  'credit-note': (year: number, n: number) => `CN-${year}-${String(n).padStart(4, '0')}`,
} as const;

/**
 * The next number of a series in the year. The counter row is taken with an upsert that returns
 * it, in the transaction that appends the numbered event: a payment that rolls back gives its
 * number back, and concurrent payments wait on the row, so numbers have neither gaps nor duplicates.
 */
async function nextNumber(trx: Knex.Transaction, series: keyof typeof DOCUMENT_SERIES, year: number) {
  const { rows } = await trx.raw(
    `INSERT INTO document_counters (series, year, last) VALUES (?, ?, 1)
     ON CONFLICT (series, year) DO UPDATE SET last = document_counters.last + 1
     RETURNING last`,
    [series, year],
  );
  return DOCUMENT_SERIES[series](year, rows[0].last);
}

/**
 * Numbers the documents the events issue, before they are appended: a payment received (not a
 * free order's) its invoice, a refund its credit note. The number is in the event, so a rebuild
 * reproduces it.
 */
export async function numberDocuments(trx: Knex.Transaction, events: OrderEvent[]): Promise<OrderEvent[]> {
  const year = new Date().getUTCFullYear();
  const numbered: OrderEvent[] = [];
  for (const event of events) {
    if (event.type === 'PaymentSucceeded' && event.data.method !== 'free' && !event.data.invoiceNumber)
      numbered.push({
        ...event,
        data: { ...event.data, invoiceNumber: await nextNumber(trx, 'invoice', year) },
      });
    else if (event.type === 'RefundIssued' && !event.data.creditNoteNumber)
      numbered.push({
        ...event,
        data: { ...event.data, creditNoteNumber: await nextNumber(trx, 'credit-note', year) },
      });
    else numbered.push(event);
  }
  return numbered;
}

/** A credit note's number from its file name (CN-2026-0001.pdf); '' (found by no note) otherwise. */
export function creditNoteNumberOf(file: string): string {
  return /^(CN-\d{4}-\d{4,})\.pdf$/.exec(file)?.[1] ?? '';
}

/** Shown inline, saved under the document's number. */
export function pdfDisposition(number: string): string {
  return `inline; filename="${number.startsWith('CN-') ? 'credit-note' : 'invoice'}-${number}.pdf"`;
}

/**
 * Sets each series' counters to at least the highest number in the order events (an imported
 * site's): its next invoice follows the last one it issued, never repeats one.
 */
export async function restoreDocumentCounters(trx: Knex.Transaction): Promise<void> {
  await trx.raw(`
    INSERT INTO document_counters (series, year, last)
    SELECT series, year, max(n) FROM (
      SELECT 'invoice' AS series, split_part(data->>'invoiceNumber', '-', 1)::int AS year,
             split_part(data->>'invoiceNumber', '-', 2)::int AS n
      FROM order_events WHERE type = 'PaymentSucceeded' AND data->>'invoiceNumber' IS NOT NULL
      UNION ALL
      SELECT 'credit-note', split_part(data->>'creditNoteNumber', '-', 2)::int,
             split_part(data->>'creditNoteNumber', '-', 3)::int
      FROM order_events WHERE type = 'RefundIssued' AND data->>'creditNoteNumber' IS NOT NULL
    ) numbered
    GROUP BY series, year
    ON CONFLICT (series, year) DO UPDATE SET last = GREATEST(document_counters.last, EXCLUDED.last)`);
}
