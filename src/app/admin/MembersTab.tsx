import type { MembershipStatus } from '../../identity/membership.ts';
import type { MemberListItem, MemberTotals } from '../../members/admin.ts';
import { formatPrice } from '../../shop/price.ts';
import type { Tier } from '../../shop/tiers.ts';
import { useCurrency } from '../currency.ts';
import { AdminFilters, AdminItems } from './AdminList.tsx';
import { formatDate } from './format.ts';

export const MEMBER_FILTERS = ['all', 'free', 'paid', 'comped', 'past_due'] as const;

const STATUS_LABELS: Record<MembershipStatus, string> = {
  free: 'Free',
  paid: 'Paid',
  comped: 'Complimentary',
  past_due: 'Past due',
};

type Props = {
  members: MemberListItem[];
  totals: MemberTotals;
  tiers: Tier[];
  filters: { q: string; status: (typeof MEMBER_FILTERS)[number] };
};

/** Members (search, status), the totals with MRR, and the tiers with their prices. */
export function MembersTab({ members, totals, tiers, filters }: Props) {
  const currency = useCurrency();
  return (
    <div className="admin-stack">
      <p className="admin-meta">
        <span className="badge">{`Free: ${totals.free}`}</span>
        <span className="badge">{`Paid: ${totals.paid}`}</span>
        <span className="badge">{`Complimentary: ${totals.comped}`}</span>
        <span className="badge">{`MRR: ${formatPrice(totals.mrr, currency)}`}</span>
      </p>
      <AdminFilters
        noun="member"
        params={{ tab: 'members' }}
        searches={[{ name: 'q', label: 'Search by name or email', value: filters.q }]}
        selects={[
          {
            name: 'status',
            label: 'Status',
            options: MEMBER_FILTERS,
            value: filters.status,
            labels: { all: 'All', ...STATUS_LABELS },
          },
        ]}
      />
      <AdminItems items={members} empty="No members found">
        {(m) => (
          <li key={m.userId} className="card admin-item">
            <div className="admin-item-head">
              <h3>{m.email}</h3>
              <span className="badge">{STATUS_LABELS[m.status]}</span>
            </div>
            <p className="muted admin-meta">
              {m.name ? <span>{m.name}</span> : null}
              {m.tierName ? <span>Tier: {m.tierName}</span> : null}
              {m.interval ? <span>{m.interval === 'month' ? 'Monthly' : 'Yearly'}</span> : null}
              {m.currentPeriodEnd ? <span>Until {formatDate(m.currentPeriodEnd)}</span> : null}
              <span>Joined {formatDate(m.createdAt)}</span>
            </p>
          </li>
        )}
      </AdminItems>
      <section className="card" aria-labelledby="tiers-heading">
        <h2 id="tiers-heading">Tiers</h2>
        {tiers.length === 0 ? (
          <p className="muted">
            No tiers yet: create them with POST /api/admin/tiers (see the writers’ guide).
          </p>
        ) : (
          <ul className="admin-list">
            {tiers.map((t) => (
              <li key={t.id}>
                {`${t.name}: ${formatPrice(t.monthlyPrice, currency)} a month · ${formatPrice(t.yearlyPrice, currency)} a year${t.active ? '' : ' (archived)'}`}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
