import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { PASSKEY_MESSAGES } from '../../../identity/passkey-messages.ts';

/**
 * The browser's side of a passkey ceremony. Imported on the first click only (with the WebAuthn
 * helpers and the messages): the reader pages' first load carries just the button.
 */

async function options<T>(action: 'passkey-login-options' | 'passkey-register-options'): Promise<T> {
  const res = await fetch(`/api/users?action=${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await res.json().catch(() => ({}))) as { options?: T; message?: string };
  if (!res.ok || !body.options) throw new Error(body.message || PASSKEY_MESSAGES.notVerified);
  return body.options;
}

/** What to tell the visitor when the prompt failed or was dismissed. */
function messageOf(error: unknown): string {
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED')
    return PASSKEY_MESSAGES.cancelled;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return PASSKEY_MESSAGES.alreadyAdded;
  return message || PASSKEY_MESSAGES.notVerified;
}

/**
 * Options from the API, the browser's prompt, and its answer as JSON for the form to post:
 * 'sign-in' offers the passkeys the browser holds for this site, 'register' makes a new one.
 * Throws an Error with a message for the visitor.
 */
export async function passkeyAnswer(kind: 'sign-in' | 'register'): Promise<string> {
  try {
    const answer =
      kind === 'sign-in'
        ? await startAuthentication({
            optionsJSON: await options<PublicKeyCredentialRequestOptionsJSON>('passkey-login-options'),
          })
        : await startRegistration({
            optionsJSON: await options<PublicKeyCredentialCreationOptionsJSON>('passkey-register-options'),
          });
    return JSON.stringify(answer);
  } catch (error) {
    throw new Error(messageOf(error));
  }
}
