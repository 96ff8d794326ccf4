import { Secret, TOTP } from 'otpauth';
import type { TestApp } from './app.ts';

let addresses = 0;

/**
 * A client address not used before in this test process (the app must run with TRUST_PROXY on to
 * take it from X-Forwarded-For): limits per address then start from zero for it.
 */
export function nextAddress(): Record<string, string> {
  addresses++;
  return { 'x-forwarded-for': `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}` };
}

/** POST /api/users?action=… with a JSON body; answers the status and the parsed body. */
export async function usersApi(
  app: TestApp,
  action: string | null,
  body: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { message?: string; [key: string]: unknown } }> {
  const res = await fetch(`${app.url}/api/users${action ? `?action=${action}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** The 6-digit code in a mail's text. */
export const mailedCode = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

/** Another 6-digit code than `code`: the n-th after it. */
export const wrongCode = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0');

/**
 * Turns two-factor on through the API for the session `sid`; answers the authenticator's code at
 * `step` periods from now (step 0 is spent turning it on: each step is usable once).
 */
export async function enableTwoFactor(app: TestApp, sid: string): Promise<(step: number) => string> {
  const auth = { authorization: `Bearer ${sid}` };
  const { secret } = (await usersApi(app, '2fa-setup', {}, auth)).body as { secret: string };
  const code = (step: number) =>
    new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
      timestamp: Date.now() + step * 30_000,
    });
  const enabled = await usersApi(app, '2fa-enable', { code: code(0) }, auth);
  if (enabled.status !== 200) throw new Error(`two-factor not turned on: ${enabled.body.message}`);
  return code;
}
