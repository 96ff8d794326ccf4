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

/** The most an admin can type as one amount: 9,999,999.99 (cents still fit PostgreSQL's integer). */
const MONEY_TEXT = /^(\d{1,7})(?:\.(\d{1,2}))?$/;

/**
 * An amount typed in the shop's currency as cents: "12.50" → 1250, "12.5" → 1250, "1,250" →
 * 125000. Null when it is no such amount (negative, three decimals, letters, empty).
 */
export function parseMoney(text: string): number | null {
  const match = MONEY_TEXT.exec(text.trim().replaceAll(',', ''));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Cents as a money field shows them for editing: 1250 → "12.50" (no symbol, no grouping). */
export function moneyInput(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function moneyMessage(label: string): string {
  return `${label} must be an amount such as 12.50`;
}
