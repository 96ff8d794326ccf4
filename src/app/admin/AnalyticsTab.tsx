import type { ReportTable } from '../../analytics/export.ts';
import {
  type AnalyticsReport,
  RANGE_PRESETS,
  type RangePreset,
  type Totals,
} from '../../analytics/report.ts';
import { formatPrice } from '../../shop/price.ts';
import { useCurrency } from '../currency.ts';
import { AnalyticsChart, RevenueChart } from './AnalyticsChart.tsx';

export type AnalyticsView = {
  report: AnalyticsReport;
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
    <section className="card" aria-labelledby={id}>
      <div className="admin-item-head">
        <h2 id={id}>{title}</h2>
        <CsvLink report={report} table={table} />
      </div>
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
    </section>
  );
}

export function AnalyticsTab({ report, preset, rangeError }: AnalyticsView) {
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
      <section className="card" aria-labelledby="analytics-chart">
        <div className="admin-item-head">
          <h2 id="analytics-chart">
            Views and visitors, {report.from} to {report.to}
          </h2>
          <CsvLink report={report} table="series" />
        </div>
        <AnalyticsChart
          series={report.series}
          title={`Views and visitors per day, ${report.from} to ${report.to}`}
        />
      </section>
      <section className="card" aria-labelledby="analytics-revenue">
        <h2 id="analytics-revenue">Revenue per day</h2>
        <RevenueChart series={report.series} title={`Revenue per day, ${report.from} to ${report.to}`} />
      </section>
      <section className="card" aria-labelledby="analytics-posts">
        <div className="admin-item-head">
          <h2 id="analytics-posts">Top Posts</h2>
          <CsvLink report={report} table="topPosts" />
        </div>
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Post</th>
              <th scope="col">Views</th>
              <th scope="col">Orders</th>
              <th scope="col">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {report.topPosts.map((p) => (
              <tr key={p.id}>
                <th scope="row">{p.title}</th>
                <td>{p.views}</td>
                <td>{p.orders}</td>
                <td>{formatPrice(p.revenue, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card" aria-labelledby="analytics-products">
        <div className="admin-item-head">
          <h2 id="analytics-products">Products: views → add to carts → orders → revenue</h2>
          <CsvLink report={report} table="products" />
        </div>
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Views</th>
              <th scope="col">Add to carts</th>
              <th scope="col">Orders</th>
              <th scope="col">Paid revenue</th>
            </tr>
          </thead>
          <tbody>
            {report.products.map((p) => (
              <tr key={p.id}>
                <th scope="row">{p.name}</th>
                <td>{p.views}</td>
                <td>{p.addToCarts}</td>
                <td>{p.orders}</td>
                <td>{formatPrice(p.revenue, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
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
