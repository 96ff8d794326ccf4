import { Form } from 'react-router';
import { ACCOUNT_MESSAGES } from '../../../identity/messages.ts';

/** 'Delete my account', confirmed by typing the account's email address. */
export function DeleteAccountCard({
  email,
  isAdmin,
  busy,
}: {
  email: string;
  isAdmin: boolean;
  busy: boolean;
}) {
  return (
    <section className="card account-card danger-zone" id="delete" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete my account</h2>
      {isAdmin ? (
        <p>{ACCOUNT_MESSAGES.adminCannotDelete}</p>
      ) : (
        <Form method="post" className="account-form">
          <p>
            This signs you out and deletes your account for good. Your comments stay on the posts under the
            name 'Deleted user'; your orders stay in the shop's records without your name, address, email or
            phone.
          </p>
          <input type="hidden" name="intent" value="delete-account" />
          <div className="field">
            <label htmlFor="delete-confirm-email">
              Type your email address (<span className="account-email">{email}</span>) to confirm
            </label>
            <input
              id="delete-confirm-email"
              name="confirmEmail"
              type="email"
              autoComplete="off"
              required
              maxLength={254}
            />
          </div>
          <button type="submit" className="button button-danger" disabled={busy}>
            Delete my account
          </button>
        </Form>
      )}
    </section>
  );
}
