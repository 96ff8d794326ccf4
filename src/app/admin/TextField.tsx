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

/** A labelled text input (a textarea when given rows) with its hint and its error, tied to it for screen readers. */
export function TextField({ name, label, error, hint, describedBy, children, ...control }: TextFieldProps) {
  const described = [describedBy, hint ? `${name}-hint` : '', error ? `${name}-error` : '']
    .filter(Boolean)
    .join(' ');
  const aria = {
    id: name,
    name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  };
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      {control.rows === undefined ? <input {...control} {...aria} /> : <textarea {...control} {...aria} />}
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
