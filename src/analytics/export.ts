import { toCsv } from '../kernel/csv.ts';
import type { AnalyticsReport } from './report.ts';

/** The report's tables a CSV file can be made of, with their columns. */
const TABLES = {
  series: ['day', 'views', 'visitors', 'orders', 'revenue'],
  topPosts: ['id', 'title', 'views', 'orders', 'revenue'],
  referrers: ['name', 'views'],
  devices: ['name', 'views'],
  countries: ['name', 'views'],
  products: ['id', 'name', 'views', 'addToCarts', 'orders', 'revenue'],
} as const;

export type ReportTable = keyof typeof TABLES;
export const REPORT_TABLES = Object.keys(TABLES) as ReportTable[];

/** One table of the report as CSV; money in cents, as the API gives it. */
export function reportCsv(report: AnalyticsReport, table: ReportTable): string {
  const columns = TABLES[table];
  const rows = report[table] as Record<string, unknown>[];
  return toCsv([[...columns], ...rows.map((row) => columns.map((c) => String(row[c] ?? '')))]);
}
