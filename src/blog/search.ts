/**
 * A safe prefix tsquery from what a visitor typed: words only (letters and digits), each
 * matched as a prefix, all required. Returns null when nothing searchable is left.
 * "postg ind" → "postg:* & ind:*"
 */
export function toPrefixTsQuery(input: string): string | null {
  const words = input
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 8)
    .map((w) => w.slice(0, 40));
  if (!words.length) return null;
  return words.map((w) => `${w}:*`).join(' & ');
}
