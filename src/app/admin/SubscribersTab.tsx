import { Form, Link, useNavigation } from 'react-router';
import type { SubscriberRow, SubscriberStatus } from '../../blog/subscribers.ts';
import { AdminFilters, AdminItems, AdminPages, DeleteItem, optionLabel } from './AdminList.tsx';
import { formatDate } from './format.ts';

export const SUBSCRIBER_FILTERS = ['all', 'pending', 'confirmed', 'unsubscribed', 'bounced'] as const;

type Props = {
  subscribers: SubscriberRow[];
  counts: Record<SubscriberStatus, number>;
  newsletters: {
    postId: number;
    title: string;
    state: string;
    total: number;
    sent: number;
    failed: number;
  }[];
  filters: { q: string; status: (typeof SUBSCRIBER_FILTERS)[number] };
  pagination: { page: number; pages: number; total: number };
};

/** Subscribers (search, status, delete, import, export) and the newsletters sent to them. */
export function SubscribersTab({ subscribers, counts, newsletters, filters, pagination }: Props) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  return (
    <div className="admin-stack">
      <p className="admin-meta">
        {(['confirmed', 'pending', 'unsubscribed', 'bounced'] as const).map((s) => (
          <span key={s} className="badge">
            {optionLabel(s)}: {counts[s]}
          </span>
        ))}
      </p>
      <AdminFilters
        noun="subscriber"
        params={{ tab: 'subscribers' }}
        searches={[{ name: 'q', label: 'Search by email', value: filters.q }]}
        selects={[{ name: 'status', label: 'Status', options: SUBSCRIBER_FILTERS, value: filters.status }]}
        beside={
          <a className="button button-secondary" href="/api/newsletter?action=export">
            Export CSV
          </a>
        }
      />
      <AdminItems items={subscribers} empty="No subscribers found">
        {(s) => (
          <li key={s.id} className="card admin-item">
            <div className="admin-item-head">
              <h3>{s.email}</h3>
              <span className="badge">{s.status}</span>
            </div>
            <p className="muted admin-meta">
              <span>Subscribed {formatDate(s.createdAt)}</span>
              {s.confirmedAt ? <span>Confirmed {formatDate(s.confirmedAt)}</span> : null}
            </p>
            <DeleteItem
              intent="delete-subscriber"
              id={s.id}
              confirm={`Erase ${s.email} and every record of what was sent to it?`}
              name={s.email}
              disabled={busy}
            />
          </li>
        )}
      </AdminItems>
      <AdminPages
        label="Subscriber pages"
        params={{ tab: 'subscribers', ...filters }}
        pagination={pagination}
      />
      <section className="card" aria-labelledby="import-subscribers">
        <h2 id="import-subscribers">Import subscribers</h2>
        <p className="muted">
          A CSV from another platform: one address per line, or a column headed “email”. Addresses already
          here are merged; those who unsubscribed stay unsubscribed.
        </p>
        <Form method="post" encType="multipart/form-data" className="admin-form">
          <input type="hidden" name="intent" value="import-subscribers" />
          <div className="field">
            <label htmlFor="subscribers-csv">CSV file</label>
            <input id="subscribers-csv" name="csv" type="file" accept=".csv,text/csv" required />
          </div>
          <div className="field admin-checkbox">
            <input id="subscribers-consent" name="consent" type="checkbox" required />
            <label htmlFor="subscribers-consent">These readers agreed to receive my newsletter</label>
          </div>
          <button className="button" type="submit" disabled={busy}>
            Import
          </button>
        </Form>
      </section>
      <section className="card" aria-labelledby="newsletters-sent">
        <h2 id="newsletters-sent">Newsletters</h2>
        {newsletters.length === 0 ? (
          <p className="muted">No post has been sent by email yet.</p>
        ) : (
          <ul className="admin-list">
            {newsletters.map((n) => (
              <li key={n.postId}>
                <Link to={`/admin/posts/${n.postId}`}>{n.title}</Link>
                <span className="muted">
                  {n.state}: {n.sent} of {n.total} sent{n.failed ? `, ${n.failed} failed` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
