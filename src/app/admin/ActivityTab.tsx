import type { AuditRow } from '../../server/audit.ts';
import { AdminFilters, AdminPages } from './AdminList.tsx';
import { formatDateTime } from './format.ts';

type Props = {
  entries: AuditRow[];
  filters: { actor: string; action: string };
  pagination: { page: number; pages: number; total: number };
};

/** The audit log: who changed what, and every sign-in, newest first. */
export function ActivityTab({ entries, filters, pagination }: Props) {
  const query = `actor=${encodeURIComponent(filters.actor)}&action=${encodeURIComponent(filters.action)}`;
  return (
    <div className="admin-stack">
      <AdminFilters
        noun="activity"
        params={{ tab: 'activity' }}
        searches={[
          { name: 'actor', label: 'Who (email)', value: filters.actor },
          { name: 'action', label: 'What', value: filters.action },
        ]}
        beside={
          <a className="button button-secondary" href={`/api/admin/audit?format=csv&${query}`}>
            Export CSV
          </a>
        }
      />
      {entries.length === 0 ? (
        <p className="empty-state">No activity recorded</p>
      ) : (
        <ul className="admin-list">
          {entries.map((e) => (
            <li key={e.id}>
              <span>
                <strong>{e.action}</strong>
                {e.target ? <span className="muted"> #{e.target}</span> : null}
                <br />
                <span className="muted">
                  {e.actorEmail ?? 'unknown'} · {e.clientIp ?? '—'} · {e.status}
                </span>
              </span>
              <span className="muted">{formatDateTime(e.at)}</span>
            </li>
          ))}
        </ul>
      )}
      <AdminPages label="Activity pages" params={{ tab: 'activity', ...filters }} pagination={pagination} />
    </div>
  );
}
