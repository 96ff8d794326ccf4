import type { ReactNode } from 'react';
import type { ReportTable } from '../../analytics/export.ts';
import {
  type AnalyticsReport,
  RANGE_PRESETS,
  type RangePreset,
  type Totals,
} from '../../analytics/report.ts';
import type { MemberDay, SignupSource } from '../../members/admin.ts';
import { formatPrice } from '../../shop/price.ts';
import { useCurrency } from '../currency.ts';
import { AnalyticsChart, ChartTable, RevenueChart } from './AnalyticsChart.tsx';
import { DataTable } from './DataTable.tsx';

export type AnalyticsView = {
  report: AnalyticsReport;
  /** Paying members and MRR at each day's end, paid memberships begun and ended in it. */
  members: MemberDay[];
  /** The posts the range's paid sign-ups are credited to. */
  signups: SignupSource[];
  preset: RangePreset | 'custom';
  /** Why a custom range was not used, in the API's words. */
  rangeError: string | null;
};

function change(now: number, before: number): string {
  if (before === 0)
    return now === 0 ? 'no change against the previous period' : 'new against the previous period';
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? '+' : ''}${pct}% against the previous period`;
}

const TOTALS: { key: keyof Totals; label: string; money?: boolean }[] = [
  { key: 'views', label: 'Views' },
  { key: 'visitors', label: 'Visitors' },
  { key: 'orders', label: 'Orders' },
  { key: 'revenue', label: 'Revenue', money: true },
];

function CsvLink({ report, table }: { report: AnalyticsReport; table: ReportTable }) {
  return (
    <a
      className="button button-small"
      href={`/api/admin/analytics?from=${report.from}&to=${report.to}&format=csv&table=${table}`}
      download
    >
      Export CSV
    </a>
  );
}

/** A card of the report with its heading and the CSV export of its table. */
function ReportSection({
  id,
  title,
  report,
  table,
  children,
}: {
  id: string;
  title: string;
  report: AnalyticsReport;
  table: ReportTable;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={id}>
      <div className="admin-item-head">
        <h2 id={id}>{title}</h2>
        <CsvLink report={report} table={table} />
      </div>
      {children}
    </section>
  );
}

function NameViews({
  id,
  title,
  rows,
  report,
  table,
}: {
  id: string;
  title: string;
  rows: { name: string; views: number }[];
  report: AnalyticsReport;
  table: ReportTable;
}) {
  return (
    <ReportSection id={id} title={title} report={report} table={table}>
      {rows.length === 0 ? (
        <p className="muted">No views in this period.</p>
      ) : (
        <ol className="admin-list">
          {rows.map((r) => (
            <li key={r.name}>
              <span>{r.name}</span>
              <span className="muted">{r.views} views</span>
            </li>
          ))}
        </ol>
      )}
    </ReportSection>
  );
}

/** Paid members over the range: where it ends, what moved, and each day in a table. */
function MembersSection({
  members,
  signups,
  report,
}: {
  members: MemberDay[];
  signups: SignupSource[];
  report: AnalyticsReport;
}) {
  const currency = useCurrency();
  const started = members.reduce((n, d) => n + d.started, 0);
  const cancelled = members.reduce((n, d) => n + d.cancelled, 0);
  const last = members.at(-1);
  const empty = started === 0 && cancelled === 0 && members.every((d) => d.paid === 0);
  return (
    <section className="card" aria-labelledby="analytics-members">
      <h2 id="analytics-members">Paid members</h2>
      {empty || !last ? (
        <p className="muted">No paid members in this period.</p>
      ) : (
        <>
          <p className="admin-meta">
            <span className="badge">{`Paid members on ${last.day}: ${last.paid}`}</span>
            <span className="badge">{`MRR on ${last.day}: ${formatPrice(last.mrr, currency)}`}</span>
            <span className="badge">{`New paid memberships: ${started}`}</span>
            <span className="badge">{`Cancelled: ${cancelled}`}</span>
          </p>
          <ChartTable
            summary="Show paid members per day as a table"
            title={`Paid members per day, ${report.from} to ${report.to}`}
            columns={['Paid members', 'MRR', 'New paid', 'Cancelled']}
            rows={members.map((d) => [d.day, d.paid, formatPrice(d.mrr, currency), d.started, d.cancelled])}
          />
          {signups.length > 0 && (
            <DataTable
              caption="Paid sign-ups by the post the reader came from"
              columns={['Post', 'Paid sign-ups']}
              rows={signups.map((p) => ({ key: p.id, head: p.title, cells: [p.signups] }))}
            />
          )}
        </>
      )}
    </section>
  );
}

export function AnalyticsTab({ report, members, signups, preset, rangeError }: AnalyticsView) {
  const currency = useCurrency();
  return (
    <div className="admin-stack">
      <nav aria-label="Period" className="admin-subtabs">
        {RANGE_PRESETS.map((p) => (
          <a
            key={p.id}
            className={`admin-subtab${preset === p.id ? ' active' : ''}`}
            href={`/admin?tab=analytics&range=${p.id}`}
            aria-current={preset === p.id ? 'page' : undefined}
          >
            {p.label}
          </a>
        ))}
      </nav>
      <form method="get" action="/admin" className="admin-filters">
        <input type="hidden" name="tab" value="analytics" />
        <input type="hidden" name="range" value="custom" />
        <label>
          From <input type="date" name="from" defaultValue={report.from} required />
        </label>
        <label>
          To <input type="date" name="to" defaultValue={report.to} required />
        </label>
        <button type="submit" className="button button-small">
          Show
        </button>
      </form>
      {rangeError ? (
        <p className="field-error" role="alert">
          {rangeError} Showing the last 30 days.
        </p>
      ) : null}
      <div className="admin-cards">
        {TOTALS.map(({ key, label, money }) => (
          <section key={key} className="card admin-stat" aria-labelledby={`total-${key}`}>
            <h2 id={`total-${key}`}>{label}</h2>
            <p className="admin-stat-value">
              {money ? formatPrice(report.totals[key], currency) : report.totals[key]}
            </p>
            <p className="muted">{change(report.totals[key], report.previous[key])}</p>
          </section>
        ))}
      </div>
      <ReportSection
        id="analytics-chart"
        title={`Views and visitors, ${report.from} to ${report.to}`}
        report={report}
        table="series"
      >
        <AnalyticsChart
          series={report.series}
          title={`Views and visitors per day, ${report.from} to ${report.to}`}
        />
      </ReportSection>
      <section className="card" aria-labelledby="analytics-revenue">
        <h2 id="analytics-revenue">Revenue per day</h2>
        <RevenueChart series={report.series} title={`Revenue per day, ${report.from} to ${report.to}`} />
      </section>
      <MembersSection members={members} signups={signups} report={report} />
      <ReportSection id="analytics-posts" title="Top Posts" report={report} table="topPosts">
        <DataTable
          columns={['Post', 'Views', 'Orders', 'Revenue']}
          rows={report.topPosts.map((p) => ({
            key: p.id,
            head: p.title,
            cells: [p.views, p.orders, formatPrice(p.revenue, currency)],
          }))}
        />
      </ReportSection>
      <ReportSection
        id="analytics-products"
        title="Products: views → add to carts → orders → revenue"
        report={report}
        table="products"
      >
        <DataTable
          columns={['Product', 'Views', 'Add to carts', 'Orders', 'Paid revenue']}
          rows={report.products.map((p) => ({
            key: p.id,
            head: p.name,
            cells: [p.views, p.addToCarts, p.orders, formatPrice(p.revenue, currency)],
          }))}
        />
      </ReportSection>
      <div className="admin-columns">
        <NameViews
          id="analytics-referrers"
          title="Referrers"
          rows={report.referrers}
          report={report}
          table="referrers"
        />
        <NameViews
          id="analytics-devices"
          title="Devices"
          rows={report.devices}
          report={report}
          table="devices"
        />
        <NameViews
          id="analytics-countries"
          title="Countries"
          rows={report.countries}
          report={report}
          table="countries"
        />
      </div>
    </div>
  );
}
