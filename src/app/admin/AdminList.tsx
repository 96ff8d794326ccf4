import type { ReactElement, ReactNode } from 'react';
import { Form, Link, useNavigation } from 'react-router';

/** A filter value as the admin reads it: `partially_refunded` → "Partially refunded". */
export const optionLabel = (value: string) =>
  value === 'all' ? 'All' : value[0].toUpperCase() + value.slice(1).replace('_', ' ');

type SearchField = { name: string; label: string; value: string };
type SelectField = SearchField & {
  options: readonly string[];
  /** Labels that say more than the value does, e.g. a count. */
  labels?: Partial<Record<string, string>>;
};

type AdminFiltersProps = {
  /** The page's name for its items; the fields' ids are `<noun>-<name>`. */
  noun: string;
  /** Hidden query parameters the filtered list keeps (its tab, its view). */
  params: Record<string, string>;
  /** Text searches first, then the selects, in the order given. */
  searches: SearchField[];
  selects?: SelectField[];
  /** A link beside the form (New Post, Export CSV): both then sit in the toolbar row. */
  beside?: ReactNode;
};

// The free-text search is `q` in the URL, but `<noun>-search` in the page, where tests and labels find it.
const fieldId = (noun: string, name: string) => `${noun}-${name === 'q' ? 'search' : name}`;

/** A tab's filters as a GET form, each field named as its query parameter so a filtered list is a plain link. */
export function AdminFilters({ noun, params, searches, selects = [], beside }: AdminFiltersProps) {
  const form = (
    <Form method="get" className="admin-filters" role="search">
      {Object.entries(params).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {searches.map((field) => (
        <div key={field.name} className="field">
          <label htmlFor={fieldId(noun, field.name)}>{field.label}</label>
          <input id={fieldId(noun, field.name)} name={field.name} type="search" defaultValue={field.value} />
        </div>
      ))}
      {selects.map((field) => (
        <div key={field.name} className="field">
          <label htmlFor={fieldId(noun, field.name)}>{field.label}</label>
          <select id={fieldId(noun, field.name)} name={field.name} defaultValue={field.value}>
            {field.options.map((value) => (
              <option key={value} value={value}>
                {field.labels?.[value] ?? optionLabel(value)}
              </option>
            ))}
          </select>
        </div>
      ))}
      <button className="button button-secondary" type="submit">
        Filter
      </button>
    </Form>
  );
  return beside ? (
    <div className="admin-toolbar">
      {form}
      {beside}
    </div>
  ) : (
    form
  );
}

/** A tab's item cards, or what it says when there are none (a plain sentence, or its own block). */
export function AdminItems<T>({
  items,
  empty,
  children,
}: {
  items: readonly T[];
  empty: string | ReactElement;
  /** One `<li>` per item, with its key. */
  children: (item: T) => ReactNode;
}) {
  if (items.length > 0) {
    return <ul className="admin-items">{items.map(children)}</ul>;
  }
  return typeof empty === 'string' ? <p className="empty-state">{empty}</p> : empty;
}

/** Deletes an item once the admin confirms; `name` completes "Delete" for screen readers. */
export function DeleteItem({
  intent,
  id,
  confirm,
  name,
  disabled,
}: {
  intent: string;
  id: number;
  confirm: string;
  name: ReactNode;
  disabled?: boolean;
}) {
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(confirm)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button className="button button-small button-danger" type="submit" disabled={disabled}>
        Delete<span className="visually-hidden"> {name}</span>
      </button>
    </Form>
  );
}

/** An item card's View (the public page, in a new tab), Edit and Delete. */
export function ItemActions({
  name,
  view,
  edit,
  ...remove
}: {
  name: string;
  view: string;
  edit: string;
  intent: string;
  id: number;
  confirm: string;
}) {
  const navigation = useNavigation();
  const deleting = navigation.formData?.get('id') === String(remove.id);
  return (
    <div className="admin-actions">
      <a className="button button-small button-secondary" href={view} target="_blank" rel="noreferrer">
        View<span className="visually-hidden"> {name} (opens in a new tab)</span>
      </a>
      <Link className="button button-small button-secondary" to={edit}>
        Edit<span className="visually-hidden"> {name}</span>
      </Link>
      <DeleteItem {...remove} name={name} disabled={deleting} />
    </div>
  );
}

/**
 * A paged list's place, and the pages before and after it as links that keep the list's filters
 * (plain links: they work without JavaScript). Nothing when everything fits on one page.
 */
export function AdminPages({
  label,
  params,
  pagination,
}: {
  /** The navigation's name for screen readers: 'Post pages'. */
  label: string;
  /** The list's query (its tab and filters), kept by each link. */
  params: Record<string, string>;
  pagination: { page: number; pages: number; total: number };
}) {
  const { page, pages, total } = pagination;
  if (pages <= 1) return null;
  const link = (n: number) => `/admin?${new URLSearchParams({ ...params, page: String(n) })}`;
  return (
    <nav className="admin-pagination" aria-label={label}>
      {page > 1 ? (
        <Link className="button button-small button-secondary" to={link(page - 1)}>
          Previous
        </Link>
      ) : null}
      <span>
        Page {page} of {pages} ({total} in all)
      </span>
      {page < pages ? (
        <Link className="button button-small button-secondary" to={link(page + 1)}>
          Next
        </Link>
      ) : null}
    </nav>
  );
}
