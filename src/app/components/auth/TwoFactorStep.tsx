import type { ComponentType, ReactNode } from 'react';

type FormProps = {
  method: 'post';
  action?: string;
  className?: string;
  noValidate?: boolean;
  children: ReactNode;
};

/** A sign-in's second step (two-factor accounts): the challenge of the right password, and a code. */
export function TwoFactorStep({
  Form,
  action,
  challengeId,
  redirectTo,
  idPrefix,
  error,
  pending,
}: {
  Form: ComponentType<FormProps>;
  action?: string;
  challengeId: string;
  redirectTo?: string;
  idPrefix: string;
  error?: string;
  pending: boolean;
}) {
  return (
    <Form method="post" action={action} className="auth-form" noValidate>
      <input type="hidden" name="intent" value="totp" />
      <input type="hidden" name="challengeId" value={challengeId} />
      {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
      <p>Two-factor sign-in is on for this account.</p>
      <div className="field">
        <label htmlFor={`${idPrefix}-code`}>Authentication code</label>
        <input
          id={`${idPrefix}-code`}
          name="code"
          autoComplete="one-time-code"
          maxLength={20}
          placeholder="6-digit code or a recovery code"
          required
          // biome-ignore lint/a11y/noAutofocus: the only field of this step, shown right after the password
          autoFocus
        />
      </div>
      {error && (
        <p className="form-status error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button auth-submit" disabled={pending}>
        {pending ? 'Checking...' : 'Verify'}
      </button>
    </Form>
  );
}
