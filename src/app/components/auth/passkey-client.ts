import { PASSKEY_MESSAGES } from '../../../identity/passkey-messages.ts';

/** Whether this browser can use passkeys at all (false on the server, where nothing is shown). */
export function webAuthnSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/**
 * The WebAuthn helpers, fetched on the first click: only the sign-in forms and the Account page
 * ever need them, so the reader pages' first load stays as it was.
 */
export const loadWebAuthn = () => import('@simplewebauthn/browser');

/** Options for a passkey ceremony from the API (`passkey-login-options` or `passkey-register-options`). */
export async function passkeyOptions<T>(
  action: 'passkey-login-options' | 'passkey-register-options',
): Promise<T> {
  const res = await fetch(`/api/users?action=${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await res.json().catch(() => ({}))) as { options?: T; message?: string };
  if (!res.ok || !body.options) throw new Error(body.message || PASSKEY_MESSAGES.notVerified);
  return body.options;
}

/** What to tell the visitor when the browser's passkey prompt failed or was dismissed. */
export function passkeyErrorMessage(error: unknown): string {
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return PASSKEY_MESSAGES.cancelled;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return PASSKEY_MESSAGES.alreadyAdded;
  return message || PASSKEY_MESSAGES.notVerified;
}
