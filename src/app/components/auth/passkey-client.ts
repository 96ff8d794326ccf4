/** Whether this browser can use passkeys at all (false on the server, where nothing is shown). */
export function webAuthnSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The ceremony, fetched on the first click: see passkey-ceremony.ts. */
export async function passkeyAnswer(kind: 'sign-in' | 'register'): Promise<string> {
  return (await import('./passkey-ceremony.ts')).passkeyAnswer(kind);
}
