import { useRef } from 'react';
import { Form, useNavigation } from 'react-router';
import { DISCOUNT_TYPES } from '../../shop/discount-schema.ts';
import type { DiscountView } from '../../shop/discounts.ts';
import { formatPrice } from '../../shop/price.ts';
import { PRODUCT_CATEGORIES } from '../../shop/product-enums.ts';
import { FormErrorsAtButton, useFocusFirstError } from '../components/FormErrors.tsx';
import { useCurrency } from '../currency.ts';
import { AdminPages } from './AdminList.tsx';
import { formatDateTime } from './format.ts';
import { TextField } from './SettingsTab.tsx';

type Props = {
  discounts: DiscountView[];
  pagination: { page: number; pages: number; total: number };
  fieldErrors?: Record<string, string>;
  /** What the admin typed into a refused form, to type it again. */
  values?: Record<string, string>;
};

/** Create a code, and the codes with their uses and revenue; a code is deactivated, never edited here. */
export function DiscountsTab({ discounts, pagination, fieldErrors, values = {} }: Props) {
  const navigation = useNavigation();
  const currency = useCurrency();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, fieldErrors);
  const errors = fieldErrors ?? {};
  const busy = navigation.state === 'submitting';
  const code = currency.toUpperCase();
  const field = (name: string, label: string, type = 'text') => (
    <TextField
      name={name}
      label={label}
      type={type}
      idPrefix="discount"
      defaultValue={values[name] ?? ''}
      error={errors[name]}
    />
  );
  const chosen = new Set((values.categories ?? '').split(',').filter(Boolean));
  const amount = (d: DiscountView) => (d.type === 'percent' ? `${d.value}%` : formatPrice(d.value, currency));
  return (
    <div className="admin-stack">
      <section className="card" aria-labelledby="new-discount">
        <h2 id="new-discount">New discount code</h2>
        <Form method="post" className="admin-form" noValidate ref={formRef} key={pagination.total}>
          <input type="hidden" name="intent" value="create-discount" />
          {field('code', 'Code')}
          <div className="field">
            <label htmlFor="discount-type">Type</label>
            <select
              id="discount-type"
              name="type"
              defaultValue={values.type ?? 'percent'}
              aria-invalid={errors.type ? true : undefined}
            >
              {DISCOUNT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t === 'percent' ? 'Percentage' : `Fixed amount (${code})`}
                </option>
              ))}
            </select>
          </div>
          {field('value', `Value (percent, or ${code} for a fixed amount, such as 12.50)`)}
          {field('minSubtotal', `Minimum subtotal in ${code} (empty: none)`)}
          {field('usageLimit', 'Total usage limit (empty: unlimited)', 'number')}
          {field('perEmailLimit', 'Uses per email address (empty: unlimited)', 'number')}
          {field('startsAt', 'Starts (UTC, empty: now)', 'datetime-local')}
          {field('endsAt', 'Ends (UTC, empty: never)', 'datetime-local')}
          {field('productIds', 'Only these product ids, comma-separated (empty: any product)')}
          <fieldset
            className="admin-fieldset"
            aria-describedby={errors.categories ? 'discount-categories-error' : undefined}
          >
            <legend>Only these categories (none checked: any)</legend>
            {PRODUCT_CATEGORIES.map((c) => (
              <div className="admin-checkbox" key={c}>
                <input
                  id={`discount-category-${c}`}
                  type="checkbox"
                  name="categories"
                  value={c}
                  defaultChecked={chosen.has(c)}
                />
                <label htmlFor={`discount-category-${c}`}>{c}</label>
              </div>
            ))}
            {errors.categories ? (
              <p id="discount-categories-error" className="field-error">
                {errors.categories}
              </p>
            ) : null}
          </fieldset>
          <FormErrorsAtButton show={Object.keys(errors).length > 0 && !busy} />
          <button className="button" type="submit" disabled={busy}>
            Create code
          </button>
        </Form>
      </section>
      {discounts.length === 0 ? (
        <p className="empty-state">No discount codes yet</p>
      ) : (
        <ul className="admin-items" aria-label="Discount codes">
          {discounts.map((d) => (
            <li key={d.id} className="card admin-item">
              <div className="admin-item-head">
                <h3>{d.code}</h3>
                <span className={d.active ? 'badge' : 'badge badge-order-cancelled'}>
                  {d.active ? 'active' : 'inactive'}
                </span>
              </div>
              <p className="muted admin-meta">
                <span>{amount(d)} off</span>
                <span>
                  Uses: {d.uses}
                  {d.usageLimit !== null ? ` of ${d.usageLimit}` : ''}
                </span>
                <span>Revenue: {formatPrice(d.revenue, currency)}</span>
                {d.perEmailLimit !== null ? <span>{d.perEmailLimit} per email</span> : null}
                {d.minSubtotal > 0 ? (
                  <span>Minimum subtotal {formatPrice(d.minSubtotal, currency)}</span>
                ) : null}
                {d.startsAt ? <span>Starts {formatDateTime(d.startsAt)}</span> : null}
                {d.endsAt ? <span>Ends {formatDateTime(d.endsAt)}</span> : null}
                {d.productIds ? <span>Products {d.productIds.join(', ')}</span> : null}
                {d.categories ? <span>{d.categories.join(', ')}</span> : null}
              </p>
              {d.active ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="deactivate-discount" />
                  <input type="hidden" name="id" value={d.id} />
                  <button className="button button-small button-danger" type="submit" disabled={busy}>
                    Deactivate<span className="visually-hidden"> {d.code}</span>
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <AdminPages label="Discount code pages" params={{ tab: 'discounts' }} pagination={pagination} />
    </div>
  );
}
