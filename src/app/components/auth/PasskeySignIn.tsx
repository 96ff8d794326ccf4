import { useEffect, useState } from 'react';
import type { FetcherSubmitFunction } from 'react-router';
import { passkeyAnswer, webAuthnSupported } from './passkey-client.ts';

/**
 * 'Sign in with a passkey': the browser offers the passkeys it holds for this site (no account
 * named, no password), and the signed answer goes to the sign-in action like the password form.
 * Shown only once JavaScript runs in a browser with WebAuthn.
 */
export function PasskeySignIn({
  submit,
  action,
  redirectTo,
  pending,
}: {
  /** The sign-in form's fetcher.submit, so the server's answer shows where the form shows its own. */
  submit: FetcherSubmitFunction;
  action: '/login' | '/amplify-login';
  redirectTo?: string;
  pending: boolean;
}) {
  const [supported, setSupported] = useState(false);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => setSupported(webAuthnSupported()), []);
  if (!supported) return null;

  async function signIn() {
    setError('');
    setWorking(true);
    try {
      const response = await passkeyAnswer('sign-in');
      await submit(
        { intent: 'passkey', response, ...(redirectTo ? { redirectTo } : {}) },
        { method: 'post', action },
      );
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setWorking(false);
    }
  }

  return (
    <div className="passkey-sign-in">
      <button
        type="button"
        className="button button-secondary auth-submit"
        onClick={signIn}
        disabled={working || pending}
      >
        Sign in with a passkey
      </button>
      {error && (
        <p className="form-status error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
