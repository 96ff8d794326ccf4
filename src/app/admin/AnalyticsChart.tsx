import { useId } from 'react';
import type { DaySeries } from '../../analytics/report.ts';
import { formatPrice } from '../../shop/price.ts';
import { useCurrency } from '../currency.ts';
import { DataTable } from './DataTable.tsx';

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 16, right: 16, bottom: 28, left: 48 };

function points(values: number[], max: number): string {
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const step = values.length > 1 ? innerW / (values.length - 1) : 0;
  return values
    .map((v, i) => {
      const x = PAD.left + (values.length > 1 ? i * step : innerW / 2);
      const y = PAD.top + innerH - (max ? (v / max) * innerH : 0);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/** A chart's numbers as a table (a day per row), folded under its summary: the chart's text alternative. */
export function ChartTable({
  summary,
  title,
  columns,
  rows,
}: {
  summary: string;
  title: string;
  columns: string[];
  rows: [day: string, ...cells: (string | number)[]][];
}) {
  return (
    <details>
      <summary>{summary}</summary>
      <DataTable
        caption={title}
        columns={['Day', ...columns]}
        rows={rows.map(([day, ...cells]) => ({ key: day, head: day, cells }))}
      />
    </details>
  );
}

/**
 * Views and visitors per day as an SVG drawn on the server: it shows without JavaScript. Screen
 * readers get its summary, and the numbers themselves in the table below it.
 */
export function AnalyticsChart({ series, title }: { series: DaySeries; title: string }) {
  const id = useId();
  const views = series.map((d) => d.views);
  const visitors = series.map((d) => d.visitors);
  const max = Math.max(1, ...views);
  const first = series[0]?.day ?? '';
  const last = series.at(-1)?.day ?? '';
  const total = views.reduce((a, b) => a + b, 0);
  return (
    <div className="analytics-chart">
      <figure>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          preserveAspectRatio="none"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>
            {`${total} views from ${first} to ${last}; at most ${Math.max(0, ...views)} in a day.`}
          </desc>
          <line
            className="chart-axis"
            x1={PAD.left}
            y1={HEIGHT - PAD.bottom}
            x2={WIDTH - PAD.right}
            y2={HEIGHT - PAD.bottom}
          />
          <line className="chart-axis" x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={HEIGHT - PAD.bottom} />
          <text className="chart-label" x={PAD.left - 6} y={PAD.top + 4} textAnchor="end">
            {max}
          </text>
          <text className="chart-label" x={PAD.left - 6} y={HEIGHT - PAD.bottom} textAnchor="end">
            0
          </text>
          <text className="chart-label" x={PAD.left} y={HEIGHT - 8}>
            {first}
          </text>
          <text className="chart-label" x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end">
            {last}
          </text>
          <polyline className="chart-views" fill="none" points={points(views, max)} />
          <polyline className="chart-visitors" fill="none" points={points(visitors, max)} />
        </svg>
        <figcaption>
          <span className="chart-key chart-key-views">Views</span>{' '}
          <span className="chart-key chart-key-visitors">Visitors</span>
        </figcaption>
      </figure>
      <ChartTable
        summary="Show the chart's data as a table"
        title={title}
        columns={['Views', 'Visitors']}
        rows={series.map((d) => [d.day, d.views, d.visitors])}
      />
    </div>
  );
}

/** A post's or product's own views over the last 30 days, on its admin page. */
/** A post's or product's own chart; none while analytics is off (series null). */
export function PageViewsCard({ series }: { series: DaySeries | null }) {
  if (!series) return null;
  return (
    <section className="card" aria-labelledby="page-views">
      <h2 id="page-views">Views and visitors, last 30 days</h2>
      <AnalyticsChart series={series} title="Views and visitors of this page per day, last 30 days" />
    </section>
  );
}

/** Paid revenue per day as bars, drawn on the server like the views chart, with its table. */
export function RevenueChart({
  series,
  title,
}: {
  series: { day: string; orders: number; revenue: number }[];
  title: string;
}) {
  const id = useId();
  const peak = Math.max(0, ...series.map((d) => d.revenue));
  // The bars' scale; the axis says the peak itself ($0.00 with no revenue, not the scale's one cent).
  const max = Math.max(1, peak);
  const currency = useCurrency();
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(series.length, 1);
  const sold = series.filter((d) => d.orders > 0);
  const total = series.reduce((n, d) => n + d.revenue, 0);
  return (
    <div className="analytics-chart">
      <figure>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          preserveAspectRatio="none"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc
            id={`${id}-desc`}
          >{`${formatPrice(total, currency)} in ${sold.length} days with orders.`}</desc>
          <line
            className="chart-axis"
            x1={PAD.left}
            y1={HEIGHT - PAD.bottom}
            x2={WIDTH - PAD.right}
            y2={HEIGHT - PAD.bottom}
          />
          <text className="chart-label" x={PAD.left - 6} y={PAD.top + 4} textAnchor="end">
            {formatPrice(peak, currency)}
          </text>
          <text className="chart-label" x={PAD.left} y={HEIGHT - 8}>
            {series[0]?.day ?? ''}
          </text>
          <text className="chart-label" x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end">
            {series.at(-1)?.day ?? ''}
          </text>
          {series.map((d, i) =>
            d.revenue > 0 ? (
              <rect
                key={d.day}
                className="chart-bar"
                x={PAD.left + i * slot + slot * 0.15}
                width={Math.max(slot * 0.7, 1)}
                y={PAD.top + innerH - (d.revenue / max) * innerH}
                height={(d.revenue / max) * innerH}
              />
            ) : null,
          )}
        </svg>
      </figure>
      <ChartTable
        summary="Show the days with orders as a table"
        title={title}
        columns={['Orders', 'Revenue']}
        rows={sold.map((d) => [d.day, d.orders, formatPrice(d.revenue, currency)])}
      />
    </div>
  );
}
