import { Link } from 'react-router';
import type { AnalyticsReport } from '../../analytics/report.ts';
import type { DashboardData } from '../../blog/dashboard.ts';
import type { MemberFlows, MemberTotals } from '../../members/admin.ts';
import { formatPrice } from '../../shop/price.ts';
import { useCurrency } from '../currency.ts';
import { AnalyticsChart } from './AnalyticsChart.tsx';

export const MAIL_NOT_SET_UP =
  'Email delivery is not set up: order confirmations and other mails are only written to the server log.';

export function DashboardTab({
  dashboard,
  recent,
  popular,
  members,
  mailDelivers,
}: {
  dashboard: DashboardData | null;
  /** The last 30 days: the chart and the top 5 posts; null while analytics is off. */
  recent: AnalyticsReport | null;
  /** Which popular posts: the last 30 days' (views in the analytics) or all time's (public counts). */
  popular: 'recent' | 'all';
  /** Members by status, the monthly recurring revenue, and the last days' sign-ups and cancellations. */
  members: MemberTotals & MemberFlows;
  /** Whether SMTP is set up: without it mails are only written to the server's log. */
  mailDelivers: boolean;
}) {
  const currency = useCurrency();
  if (!dashboard) return <p className="empty-state">No dashboard data available</p>;
  const { stats, recentActivity } = dashboard;
  return (
    <div className="admin-stack">
      {!mailDelivers && (
        <div className="admin-banner">
          <p>
            <strong>{MAIL_NOT_SET_UP}</strong> Set <code>SMTP_URL</code> to send them.
          </p>
        </div>
      )}
      {stats.comments.pending > 0 ? (
        <div className="admin-banner">
          <p>
            <strong>{stats.comments.pending} Comments Awaiting Moderation</strong>
          </p>
          <Link className="button button-small" to="/admin?tab=comments">
            Review Comments
          </Link>
        </div>
      ) : null}
      <div className="admin-cards">
        <section className="card admin-stat" aria-labelledby="stat-posts">
          <h2 id="stat-posts">Total Posts</h2>
          <p className="admin-stat-value">{stats.posts.total}</p>
          <p className="muted">
            {stats.posts.published} published, {stats.posts.drafts} drafts
          </p>
        </section>
        <section className="card admin-stat" aria-labelledby="stat-products">
          <h2 id="stat-products">Products</h2>
          <p className="admin-stat-value">{stats.products.total}</p>
          <p className="muted">
            {stats.products.active} active, {stats.products.inactive} inactive
          </p>
        </section>
        <section className="card admin-stat" aria-labelledby="stat-orders">
          <h2 id="stat-orders">Orders</h2>
          <p className="admin-stat-value">{stats.orders.total}</p>
          <p className="muted">{stats.orders.pending} pending</p>
          {stats.orders.refundNeeded > 0 && (
            <p className="field-error">
              <a href="/admin?tab=orders">{stats.orders.refundNeeded} to refund</a>: paid after they expired
            </p>
          )}
        </section>
        <section className="card admin-stat" aria-labelledby="stat-subscribers">
          <h2 id="stat-subscribers">Subscribers</h2>
          <p className="admin-stat-value">{stats.subscribers.confirmed}</p>
          <p className="muted">
            <a href="/admin?tab=subscribers">+{stats.subscribers.last30Days} in the last 30 days</a>
          </p>
        </section>
        <section className="card admin-stat" aria-labelledby="stat-members">
          <h2 id="stat-members">Members MRR</h2>
          <p className="admin-stat-value">{formatPrice(members.mrr, currency)}</p>
          <p className="muted">
            <a href="/admin?tab=members">{`${members.paid} paid, ${members.comped} complimentary, ${members.free} free`}</a>
          </p>
          <p className="muted">{`+${members.started} paid, −${members.cancelled} cancelled in the last ${members.days} days`}</p>
        </section>
        <section className="card admin-stat" aria-labelledby="stat-revenue">
          <h2 id="stat-revenue">Revenue</h2>
          <p className="admin-stat-value">{stats.revenue.formatted}</p>
          <p className="muted">{stats.users.total} total users</p>
        </section>
      </div>
      {recent ? (
        <section className="card" aria-labelledby="recent-chart">
          <div className="admin-item-head">
            <h2 id="recent-chart">Views and visitors, last 30 days</h2>
            <Link className="button button-small" to="/admin?tab=analytics">
              Analytics
            </Link>
          </div>
          <AnalyticsChart series={recent.series} title="Views and visitors per day, last 30 days" />
        </section>
      ) : null}
      <div className="admin-columns">
        <section className="card" aria-labelledby="popular-posts">
          <h2 id="popular-posts">Popular Posts</h2>
          {recent ? (
            <nav aria-label="Popular posts over" className="admin-subtabs">
              <a
                className={`admin-subtab${popular === 'recent' ? ' active' : ''}`}
                href="/admin"
                aria-current={popular === 'recent' ? 'page' : undefined}
              >
                Last 30 days
              </a>
              <a
                className={`admin-subtab${popular === 'all' ? ' active' : ''}`}
                href="/admin?popular=all"
                aria-current={popular === 'all' ? 'page' : undefined}
              >
                All time
              </a>
            </nav>
          ) : null}
          {recent && popular === 'recent' ? (
            recent.topPosts.length === 0 ? (
              <p className="muted">No post was read in the last 30 days.</p>
            ) : (
              <ol className="admin-list">
                {recent.topPosts.map((post) => (
                  <li key={post.id}>
                    <span>{post.title}</span>
                    <span className="muted">
                      {post.views} views{post.orders ? `, ${post.orders} orders` : ''}
                    </span>
                  </li>
                ))}
              </ol>
            )
          ) : recentActivity.popularPosts.length === 0 ? (
            <p className="muted">No published posts yet.</p>
          ) : (
            <ol className="admin-list">
              {recentActivity.popularPosts.map((post) => (
                <li key={post.id}>
                  <span>{post.title}</span>
                  <span className="muted">{post.viewCount} views</span>
                </li>
              ))}
            </ol>
          )}
        </section>
        <section className="card" aria-labelledby="low-stock">
          <h2 id="low-stock">Low Stock Alert</h2>
          {recentActivity.lowStockProducts.length === 0 ? (
            <p className="muted">Every product is well stocked.</p>
          ) : (
            <ul className="admin-list">
              {recentActivity.lowStockProducts.map((product) => (
                // A product's variants share its id; their names carry their labels.
                <li key={`${product.id} ${product.name}`}>
                  <span>
                    {product.name} <span className="muted">{formatPrice(product.price, currency)}</span>
                  </span>
                  <span className={product.stock === 0 ? 'badge badge-destructive' : 'badge'}>
                    {product.stock} left
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card" aria-labelledby="recent-newsletters">
          <h2 id="recent-newsletters">Newsletters</h2>
          {recentActivity.newsletters.length === 0 ? (
            <p className="muted">No post has been sent by email yet.</p>
          ) : (
            <ul className="admin-list">
              {recentActivity.newsletters.map((n) => (
                <li key={n.postId}>
                  <span>{n.title}</span>
                  <span className="muted">
                    {n.sent} of {n.total} sent{n.failed ? `, ${n.failed} failed` : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
