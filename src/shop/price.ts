/** The shop's currency when CURRENCY is not set, as Stripe names it (ISO 4217, lowercase). */
export const DEFAULT_CURRENCY = 'usd';

const formats = new Map<string, Intl.NumberFormat>();

/**
 * The one place cents become money, on the server and in the browser alike:
 * (2999, 'usd') → "$29.99", (2999, 'eur') → "€29.99".
 */
export function formatPrice(cents: number, currency: string): string {
  const code = currency.toUpperCase();
  let format = formats.get(code);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code, minimumFractionDigits: 2 });
    formats.set(code, format);
  }
  return format.format(cents / 100);
}

/** Whether a code names an ISO 4217 currency counted in hundredths, as prices are stored (not JPY). */
export function isCentsCurrency(code: string): boolean {
  if (!/^[a-z]{3}$/.test(code) || !Intl.supportedValuesOf('currency').includes(code.toUpperCase()))
    return false;
  const digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions();
  return digits.maximumFractionDigits === 2;
}
