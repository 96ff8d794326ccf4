import { useState } from 'react';
import { Form } from 'react-router';
import { PasswordChecklist } from '../auth/PasswordChecklist.tsx';
import { PasswordField } from '../auth/PasswordField.tsx';

/** Change password: the current one proves it is you; the other sessions end. */
export function PasswordCard({ busy }: { busy: boolean }) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  return (
    <section className="card account-card" id="password" aria-labelledby="password-heading">
      <h2 id="password-heading">Change password</h2>
      <p className="muted">Changing it signs you out everywhere else.</p>
      <Form method="post" className="account-form">
        <input type="hidden" name="intent" value="password" />
        <PasswordField
          id="current-password"
          name="currentPassword"
          label="Current password"
          autoComplete="current-password"
        />
        <PasswordField
          id="new-password"
          name="newPassword"
          label="New password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          describedBy="new-password-rules"
        />
        <PasswordField
          id="confirm-password"
          name="confirmPassword"
          label="Confirm new password"
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
        />
        <PasswordChecklist id="new-password-rules" password={password} confirmation={confirmation} />
        <button type="submit" className="button" disabled={busy}>
          Change password
        </button>
      </Form>
    </section>
  );
}
