import { type FormEvent, useEffect, useState } from 'react';
import { Form, useSubmit } from 'react-router';
import { formatDateTime } from '../../admin/format.ts';
import { passkeyAnswer, webAuthnSupported } from './passkey-client.ts';

type PasskeyItem = { id: string; name: string; createdAt: string; lastUsedAt: string | null };

/** The Account page's passkeys: each with when it was added and last used, 'Remove', and 'Add a passkey'. */
export function PasskeysCard({ passkeys, busy }: { passkeys: PasskeyItem[]; busy: boolean }) {
  return (
    <section className="card" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p>
        A passkey signs you in with your device’s screen lock or a security key, without a password or a code.
      </p>
      {passkeys.length > 0 ? (
        <ul className="session-list" data-testid="passkey-list">
          {passkeys.map((p) => (
            <li key={p.id} className="session-item">
              <div>
                <strong>{p.name}</strong>
                <p className="muted">
                  Added {formatDateTime(p.createdAt)} ·{' '}
                  {p.lastUsedAt ? `last used ${formatDateTime(p.lastUsedAt)}` : 'not used yet'}
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="passkey-delete" />
                <input type="hidden" name="id" value={p.id} />
                <button type="submit" className="button button-small button-secondary" disabled={busy}>
                  Remove<span className="visually-hidden"> {p.name}</span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No passkeys yet.</p>
      )}
      <AddPasskey busy={busy} />
    </section>
  );
}

/** Asks the browser for a new passkey, then posts its answer with the name to the page's action. */
function AddPasskey({ busy }: { busy: boolean }) {
  const submit = useSubmit();
  const [supported, setSupported] = useState(false);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => setSupported(webAuthnSupported()), []);
  if (!supported)
    return <p className="muted">Adding a passkey needs JavaScript and a browser that supports passkeys.</p>;

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    setError('');
    setWorking(true);
    try {
      const response = await passkeyAnswer('register');
      await submit({ intent: 'passkey-register', name, response }, { method: 'post' });
      form.reset();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setWorking(false);
    }
  }

  return (
    // The browser checks the name before the prompt: a refused name would leave the new passkey
    // on the authenticator and not here.
    <form onSubmit={add}>
      <div className="field">
        <label htmlFor="passkey-name">Name of the new passkey</label>
        <input
          id="passkey-name"
          name="name"
          maxLength={60}
          pattern=".*\S.*"
          title="Give the passkey a name."
          placeholder="e.g. Work laptop"
          required
        />
      </div>
      {error && (
        <p className="form-status error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button" disabled={busy || working}>
        Add a passkey
      </button>
    </form>
  );
}
