/** The shop's currency as configuration reads it: below every area, as config.ts is. */

/** The shop's currency when CURRENCY is not set, as Stripe names it (ISO 4217, lowercase). */
export const DEFAULT_CURRENCY = 'usd';

/** Whether a code names an ISO 4217 currency counted in hundredths, as prices are stored (not JPY). */
export function isCentsCurrency(code: string): boolean {
  if (!/^[a-z]{3}$/.test(code) || !Intl.supportedValuesOf('currency').includes(code.toUpperCase()))
    return false;
  const digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions();
  return digits.maximumFractionDigits === 2;
}
