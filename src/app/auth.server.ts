/**
 * Only paths on this site: anything else (//evil.com, https://…, javascript:) falls back to the
 * default. Characters outside printable ASCII are percent-encoded: a Location header holds bytes,
 * and `/日本` as typed would make the redirect itself fail.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  const value = typeof target === 'string' ? target.trim() : '';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || /[\r\n\t]/.test(value))
    return fallback;
  try {
    return value.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
  } catch {
    return fallback; // a lone surrogate cannot be encoded
  }
}
