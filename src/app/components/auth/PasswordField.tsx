import { useState } from 'react';

/** A password input with a show/hide toggle. */
export function PasswordField({
  id,
  name,
  label,
  autoComplete,
  value,
  onChange,
  describedBy,
  invalid,
}: {
  id: string;
  name: string;
  label: string;
  autoComplete: string;
  value?: string;
  onChange?: (value: string) => void;
  describedBy?: string;
  /** Marked when a refused form's message is about this field. */
  invalid?: boolean;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="password-row">
        <input
          id={id}
          name={name}
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          required
          maxLength={256}
          value={value}
          onChange={onChange ? (e) => onChange(e.currentTarget.value) : undefined}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
        />
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-controls={id}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </div>
  );
}
