import { useRef } from 'react';
import { Form, useNavigation } from 'react-router';
import type { MembershipStatus } from '../../identity/membership.ts';
import type { MemberListItem, MemberTotals, memberHistory } from '../../members/admin.ts';
import { formatPrice, moneyInput } from '../../shop/price.ts';
import type { Tier } from '../../shop/tiers.ts';
import { FormErrorsAtButton, useFocusFirstError } from '../components/FormErrors.tsx';
import { useCurrency } from '../currency.ts';
import { AdminFilters, AdminItems } from './AdminList.tsx';
import { formatDate } from './format.ts';
import { TextField } from './SettingsTab.tsx';
import { SelectField } from './TextField.tsx';

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
  /** The member opened with `?member=`: their history, newest first. */
  member?: (Awaited<ReturnType<typeof memberHistory>> & { userId: number }) | null;
  /** A refused tier form: its problems and what was typed (`values.id` names the form, empty: new). */
  refused?: { fieldErrors?: Record<string, string>; values?: Record<string, string> };
};

/**
 * One tier's form (or, without a tier, the new tier's): prices typed as money, like the product
 * editor's; a refusal comes back beside the fields of the form that sent it.
 */
function TierForm({ tier, refused }: { tier?: Tier; refused?: Props['refused'] }) {
  const navigation = useNavigation();
  const currency = useCurrency();
  const formRef = useRef<HTMLFormElement>(null);
  const mine = refused?.values && refused.values.id === String(tier?.id ?? '') ? refused : undefined;
  useFocusFirstError(formRef, mine?.fieldErrors);
  const errors = mine?.fieldErrors ?? {};
  const typed = mine?.values;
  const busy = navigation.state === 'submitting';
  const prefix = `tier-${tier?.id ?? 'new'}`;
  const code = currency.toUpperCase();
  const field = (name: string, label: string, saved: string, multiline = false) => (
    <TextField
      name={name}
      label={label}
      idPrefix={prefix}
      defaultValue={typed ? typed[name] : saved}
      error={errors[name]}
      multiline={multiline}
    />
  );
  const heading = tier
    ? `${tier.name}: ${formatPrice(tier.monthlyPrice, currency)} a month · ${formatPrice(tier.yearlyPrice, currency)} a year`
    : 'New tier';
  return (
    <div className="card admin-item">
      <div className="admin-item-head">
        <h3 id={`${prefix}-heading`}>{heading}</h3>
        {tier ? <span className="badge">{tier.active ? 'Active' : 'Archived'}</span> : null}
      </div>
      <Form
        method="post"
        className="admin-form"
        noValidate
        ref={formRef}
        aria-labelledby={`${prefix}-heading`}
      >
        <input type="hidden" name="intent" value="save-tier" />
        <input type="hidden" name="id" value={tier?.id ?? ''} />
        {field('name', 'Name', tier?.name ?? '')}
        {field('description', 'Description', tier?.description ?? '', true)}
        {field(
          'monthlyPrice',
          `Monthly price (${code}, such as 5.00)`,
          tier ? moneyInput(tier.monthlyPrice) : '',
        )}
        {field(
          'yearlyPrice',
          `Yearly price (${code}, such as 50.00)`,
          tier ? moneyInput(tier.yearlyPrice) : '',
        )}
        <div className="field admin-checkbox">
          <input
            id={`${prefix}-active`}
            name="active"
            type="checkbox"
            defaultChecked={typed ? typed.active === 'on' : (tier?.active ?? true)}
            aria-invalid={errors.active ? true : undefined}
            aria-describedby={errors.active ? `${prefix}-active-error` : undefined}
          />
          <label htmlFor={`${prefix}-active`}>Active (offered to readers)</label>
          {errors.active ? (
            <p id={`${prefix}-active-error`} className="field-error">
              {errors.active}
            </p>
          ) : null}
        </div>
        <FormErrorsAtButton show={Object.keys(errors).length > 0 && !busy} />
        <button className="button" type="submit" disabled={busy}>
          {tier ? 'Save tier' : 'Create tier'}
          {tier ? <span className="visually-hidden"> {tier.name}</span> : null}
        </button>
      </Form>
      {tier?.active ? (
        <Form method="post">
          <input type="hidden" name="intent" value="archive-tier" />
          <input type="hidden" name="id" value={tier.id} />
          <button className="button button-small button-danger" type="submit" disabled={busy}>
            Archive<span className="visually-hidden"> {tier.name}</span>
          </button>
        </Form>
      ) : null}
    </div>
  );
}

/**
 * One member's subscription history, the form giving them a complimentary membership and, while
 * they have one, the button ending it.
 */
function MemberPanel({
  member,
  tiers,
  errors,
}: {
  member: NonNullable<Props['member']>;
  tiers: Tier[];
  errors: Record<string, string>;
}) {
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, errors.tierId || errors.until ? errors : undefined);
  const tierName = (id: number | null) => tiers.find((t) => t.id === id)?.name;
  const busy = navigation.state === 'submitting';
  const { membership } = member;
  return (
    <section className="card admin-stack" aria-labelledby="member-heading">
      <h2 id="member-heading">{member.email}</h2>
      {member.name ? <p>{member.name}</p> : null}
      <p className="muted">
        {`Membership: ${STATUS_LABELS[membership.status]}`}
        {membership.status === 'comped'
          ? `, ${tierName(membership.tierId) ?? 'a tier'}, ${membership.currentPeriodEnd ? `until ${formatDate(membership.currentPeriodEnd)}` : 'for good'}`
          : ''}
      </p>
      {membership.status === 'comped' ? (
        <Form method="post">
          <input type="hidden" name="intent" value="end-comp" />
          <input type="hidden" name="id" value={member.userId} />
          <button className="button button-small button-danger" type="submit" disabled={busy}>
            End complimentary membership
          </button>
        </Form>
      ) : null}
      <h3>Subscription history</h3>
      {member.history.length === 0 ? (
        <p className="muted">No changes yet</p>
      ) : (
        <ol className="admin-list" aria-label="Subscription history">
          {member.history.map((e) => (
            <li key={`${e.at}-${e.type}-${e.status}-${e.tierId}`}>
              {`${formatDate(e.at)}: ${e.type}, ${STATUS_LABELS[e.status]}`}
              {tierName(e.tierId) ? `, ${tierName(e.tierId)}` : ''}
              {e.fromPost ? ` (from “${e.fromPost.title}”)` : ''}
            </li>
          ))}
        </ol>
      )}
      <h3 id="comp-heading">Complimentary membership</h3>
      <Form method="post" className="admin-form" noValidate ref={formRef} aria-labelledby="comp-heading">
        <input type="hidden" name="intent" value="comp-member" />
        <input type="hidden" name="id" value={member.userId} />
        <SelectField
          name="tierId"
          label="Tier"
          placeholder="Choose a tier"
          defaultValue=""
          options={tiers.filter((t) => t.active).map((t) => ({ value: String(t.id), label: t.name }))}
          error={errors.tierId}
        />
        <TextField
          name="until"
          label="Until (empty: for good)"
          type="date"
          idPrefix="comp"
          defaultValue=""
          error={errors.until}
        />
        <button className="button" type="submit" disabled={busy}>
          Give complimentary membership
        </button>
      </Form>
    </section>
  );
}

/** Members (search, status), the totals with MRR, and the tiers: each editable, and a new one. */
export function MembersTab({ members, totals, tiers, filters, member, refused }: Props) {
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
      {member ? (
        <MemberPanel
          member={member}
          tiers={tiers}
          errors={refused?.values ? {} : (refused?.fieldErrors ?? {})}
        />
      ) : null}
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
            <a href={`/admin?tab=members&member=${m.userId}`}>
              History and complimentary membership<span className="visually-hidden"> of {m.email}</span>
            </a>
          </li>
        )}
      </AdminItems>
      <section className="card admin-stack" aria-labelledby="tiers-heading">
        <h2 id="tiers-heading">Tiers</h2>
        {tiers.length === 0 ? <p className="muted">No tiers yet</p> : null}
        {tiers.map((t) => (
          <TierForm key={t.id} tier={t} refused={refused} />
        ))}
        <TierForm refused={refused} />
      </section>
    </div>
  );
}
