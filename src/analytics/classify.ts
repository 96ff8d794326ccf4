/** How a page view is described in the rollups: never the address or the user agent itself. */
export type Device = 'mobile' | 'tablet' | 'desktop';

/** Search engines and social sites, by the registrable part of their host. */
const NAMED_SOURCES: [RegExp, string][] = [
  [/(^|\.)google\.[a-z.]+$/, 'Google'],
  [/(^|\.)bing\.com$/, 'Bing'],
  [/(^|\.)duckduckgo\.com$/, 'DuckDuckGo'],
  [/(^|\.)yahoo\.[a-z.]+$/, 'Yahoo'],
  [/(^|\.)ecosia\.org$/, 'Ecosia'],
  [/(^|\.)yandex\.[a-z.]+$/, 'Yandex'],
  [/(^|\.)baidu\.com$/, 'Baidu'],
  [/(^|\.)search\.brave\.com$/, 'Brave Search'],
  [/(^|\.)(facebook\.com|fb\.com|fb\.me)$/, 'Facebook'],
  [/(^|\.)instagram\.com$/, 'Instagram'],
  [/(^|\.)(twitter\.com|x\.com|t\.co)$/, 'X'],
  [/(^|\.)(linkedin\.com|lnkd\.in)$/, 'LinkedIn'],
  [/(^|\.)reddit\.com$/, 'Reddit'],
  [/(^|\.)(youtube\.com|youtu\.be)$/, 'YouTube'],
  [/(^|\.)pinterest\.[a-z.]+$/, 'Pinterest'],
  [/(^|\.)bsky\.app$/, 'Bluesky'],
  [/(^|\.)threads\.(net|com)$/, 'Threads'],
];

const INTERNAL_SOURCE = 'internal';
const DIRECT_SOURCE = 'direct';

/** The Referer header as a source: a name, the bare host, 'internal' for our own host, 'direct' for none. */
export function referrerSource(referer: string, ownHosts: string[]): string {
  if (!referer) return DIRECT_SOURCE;
  let host: string;
  try {
    host = new URL(referer).hostname.toLowerCase();
  } catch {
    return DIRECT_SOURCE;
  }
  if (!host) return DIRECT_SOURCE;
  if (ownHosts.includes(host)) return INTERNAL_SOURCE;
  for (const [pattern, name] of NAMED_SOURCES) if (pattern.test(host)) return name;
  return host.replace(/^www\./, '').slice(0, 100);
}

export function deviceClass(userAgent: string): Device {
  if (/iPad|Tablet|Kindle|Silk|PlayBook/i.test(userAgent) || /Android(?!.*Mobi)/i.test(userAgent))
    return 'tablet';
  return /Mobi|iPhone|iPod|Android/i.test(userAgent) ? 'mobile' : 'desktop';
}

/** A country code from a proxy header; Cloudflare's XX (unknown) and T1 (Tor) are none. */
export function countryCode(value: string): string | null {
  const code = value.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && code !== 'XX' && code !== 'T1' ? code : null;
}
