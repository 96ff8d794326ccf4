/** Words split on whitespace. */
export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/).length : 0;
}

/** SPEC §9: words divided by 200, rounded up (at least 1). */
export function readingMinutes(text: string): number {
  return Math.max(1, Math.ceil(wordCount(text) / 200));
}

/** From this many minutes a post is long enough to show how far into it the reader is. */
export const LONG_READ_MINUTES = 3;

const longDate = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

/** US English, long month, numeric day, year: "November 22, 2026". */
export function formatDate(value: string | Date): string {
  return longDate.format(typeof value === 'string' ? new Date(value) : value);
}

/** The first n characters of a text plus an ellipsis, for previews. */
export function preview(text: string, n = 100): string {
  return text.length > n ? `${text.slice(0, n).trimEnd()}…` : text;
}

/** 'By' first and last name when both are present, else the username, else 'Anonymous'. */
export function authorName(
  author: { firstName: string | null; lastName: string | null; username: string | null } | null,
): string {
  if (author?.firstName && author.lastName) return `${author.firstName} ${author.lastName}`;
  return author?.username || 'Anonymous';
}
