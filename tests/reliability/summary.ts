import { appendFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

const FILE = path.resolve('.test-data', 'reliability-summary.ndjson');

/** One reading of the soak test, taken every 10 s. */
export type SoakSample = {
  seconds: number;
  rssMb: number;
  poolUsed: number;
  poolFree: number;
  poolPending: number;
  /** Connections to the database as PostgreSQL sees them (web, worker and queue together). */
  serverConnections: number;
  requests: number;
};

export type SummaryEntry = {
  soakSamples?: SoakSample[];
  endpointsFuzzed?: number;
  pageRoutesFuzzed?: number;
  requestsSent?: number;
  serverErrors?: number;
  faultsInjected?: number;
  faultsSurvived?: number;
  ordersLost?: number;
  mailsLost?: number;
};

/** Each reliability test file adds its counts; the global teardown prints the total. */
export async function recordSummary(entry: SummaryEntry): Promise<void> {
  await mkdir(path.dirname(FILE), { recursive: true });
  await appendFile(FILE, `${JSON.stringify(entry)}\n`);
}

/**
 * Records a mail fault from the number of confirmation mails each order received:
 * survived when every order got exactly one; an order with none is a lost mail.
 */
export async function recordMailFault(mailsPerOrder: number[]): Promise<void> {
  await recordSummary({
    faultsInjected: 1,
    faultsSurvived: mailsPerOrder.every((n) => n === 1) ? 1 : 0,
    mailsLost: mailsPerOrder.filter((n) => n === 0).length,
  });
}

export async function resetSummary(): Promise<void> {
  await rm(FILE, { force: true });
}

export async function readSummary(): Promise<Required<SummaryEntry>> {
  const total: Required<SummaryEntry> = {
    soakSamples: [],
    endpointsFuzzed: 0,
    pageRoutesFuzzed: 0,
    requestsSent: 0,
    serverErrors: 0,
    faultsInjected: 0,
    faultsSurvived: 0,
    ordersLost: 0,
    mailsLost: 0,
  };
  const text = await readFile(FILE, 'utf8').catch(() => '');
  for (const line of text.split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as SummaryEntry;
    total.soakSamples.push(...(entry.soakSamples ?? []));
    for (const key of Object.keys(total) as (keyof SummaryEntry)[]) {
      if (key !== 'soakSamples') total[key] += entry[key] ?? 0;
    }
  }
  return total;
}
