import { COUNTRIES } from '../../shop/countries.ts';

/**
 * The ISO 3166 countries by name, posted as their codes: one, or several (Ctrl or Cmd picks more)
 * — a plain form field that works without JavaScript.
 */
export function CountriesSelect(props: {
  id: string;
  name: string;
  label: string;
  multiple?: boolean;
  chosen: string[];
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.name}
        multiple={props.multiple}
        size={props.multiple ? 6 : undefined}
        defaultValue={props.multiple ? props.chosen : (props.chosen[0] ?? '')}
      >
        {!props.multiple && <option value="">Choose a country</option>}
        {COUNTRIES.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </select>
    </div>
  );
}
