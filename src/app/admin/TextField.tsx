import type { ComponentProps, ReactNode } from 'react';

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="field-error">
      {message}
    </p>
  ) : null;
}

type Control<T extends 'input' | 'textarea'> = Omit<ComponentProps<T>, 'id' | 'name' | 'children'>;

type TextFieldProps = {
  /** The control's name and id; its hint and error are `<name>-hint` and `<name>-error`. */
  name: string;
  label: string;
  /** The refused form's message for this field. */
  error?: string;
  /** Said under the field, and read with it. */
  hint?: ReactNode;
  /** The ids of what else the children say about the field (a character counter). */
  describedBy?: string;
  children?: ReactNode;
} & (({ rows?: undefined } & Control<'input'>) | ({ rows: number } & Control<'textarea'>));

/** What every field passes to its control: its id and name, and what is said about it. */
function fieldAria({
  name,
  error,
  hint,
  describedBy,
}: Pick<TextFieldProps, 'name' | 'error' | 'hint' | 'describedBy'>) {
  const described = [describedBy, hint ? `${name}-hint` : '', error ? `${name}-error` : '']
    .filter(Boolean)
    .join(' ');
  return {
    id: name,
    name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  };
}

/** The label above a control, and its hint and error under it. */
function Field({
  name,
  label,
  error,
  hint,
  children,
}: Pick<TextFieldProps, 'name' | 'label' | 'error' | 'hint' | 'children'>) {
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      {children}
      {hint ? (
        <p id={`${name}-hint`} className="muted">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${name}-error`} message={error} />
    </div>
  );
}

/** A labelled text input (a textarea when given rows) with its hint and its error, tied to it for screen readers. */
export function TextField({ name, label, error, hint, describedBy, children, ...control }: TextFieldProps) {
  const aria = fieldAria({ name, error, hint, describedBy });
  return (
    <Field name={name} label={label} error={error} hint={hint}>
      {control.rows === undefined ? <input {...control} {...aria} /> : <textarea {...control} {...aria} />}
      {children}
    </Field>
  );
}

type SelectFieldProps = {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  options: readonly { value: string; label: string }[];
  /** A first, disabled choice that asks for one (a required select starts on it). */
  placeholder?: string;
} & Omit<ComponentProps<'select'>, 'id' | 'name' | 'children'>;

/** A labelled select with its hint and its error, as TextField has them. */
export function SelectField({
  name,
  label,
  error,
  hint,
  options,
  placeholder,
  ...control
}: SelectFieldProps) {
  return (
    <Field name={name} label={label} error={error} hint={hint}>
      <select {...control} {...fieldAria({ name, error, hint })}>
        {placeholder ? (
          <option value="" disabled>
            {placeholder}
          </option>
        ) : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
