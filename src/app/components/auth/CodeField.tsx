/**
 * The 6-digit code field of every confirmation form. Room for more than six characters: a pasted
 * ' 856582' or '856 582' must arrive whole (the schema drops the spaces), not cut to ' 85658'.
 */
export function CodeField({ id, required }: { id: string; required?: boolean }) {
  return (
    <div className="field">
      <label htmlFor={id}>Verification code</label>
      <input
        id={id}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={16}
        placeholder="6-digit code"
        required={required}
      />
    </div>
  );
}
