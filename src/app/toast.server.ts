import { redirect } from 'react-router';

export type Toast = { title: string; description?: string; type?: 'success' | 'error' };

const COOKIE = 'toast';

/** A redirect that shows a toast on the next page: it travels in a short-lived cookie, so it works without JavaScript. */
export function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}): Response {
  const response = redirect(url, init);
  const value = Buffer.from(JSON.stringify(toast)).toString('base64url');
  response.headers.append('Set-Cookie', `${COOKIE}=${value}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax`);
  return response;
}

/** The pending toast of a request, and the header that clears it once shown. */
export function takeToast(request: Request): { toast: Toast | null; clear: string | null } {
  const raw = /(?:^|;\s*)toast=([A-Za-z0-9_-]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  if (!raw) return { toast: null, clear: null };
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Toast;
    const toast =
      typeof parsed.title === 'string'
        ? {
            title: parsed.title.slice(0, 200),
            description: parsed.description?.slice(0, 500),
            type: parsed.type,
          }
        : null;
    return { toast, clear: `${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax` };
  } catch {
    return { toast: null, clear: `${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax` };
  }
}
