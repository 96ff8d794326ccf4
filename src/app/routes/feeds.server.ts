import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Enclosure } from '../../blog/feeds.ts';
import { audioType } from '../../blog/feeds.ts';

const REMOTE_TIMEOUT_MS = 3_000;

/**
 * Measures a podcast post's audio for its feed enclosure: a file this site serves (the client
 * build, which holds public/) by its size on disk; a remote file by a HEAD request's
 * Content-Length and Content-Type. Length 0 only when the size cannot be learned.
 */
export function enclosureMeasurer(buildDir: string): (url: string) => Promise<Enclosure> {
  const roots = [path.join(buildDir, 'client'), path.resolve('public')];
  return async (url) => {
    if (/^https?:\/\//i.test(url)) return remoteEnclosure(url);
    const pathname = url.split(/[?#]/)[0] ?? '';
    const fallback = { length: 0, type: audioType(pathname) };
    if (!pathname.startsWith('/')) return fallback;
    for (const root of roots) {
      const file = path.join(root, path.normalize(decodeURIComponentSafe(pathname)));
      if (!file.startsWith(root + path.sep)) return fallback;
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) return { length: info.size, type: fallback.type };
    }
    return fallback;
  };
}

async function remoteEnclosure(url: string): Promise<Enclosure> {
  const byName = audioType(new URL(url).pathname);
  try {
    const res = await fetch(url, {
      method: 'HEAD',
      redirect: 'follow',
      signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
    });
    if (!res.ok) return { length: 0, type: byName };
    const length = Number.parseInt(res.headers.get('content-length') ?? '', 10);
    const declared = res.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
    return {
      length: Number.isSafeInteger(length) && length > 0 ? length : 0,
      type: declared.startsWith('audio/') ? declared : byName,
    };
  } catch {
    return { length: 0, type: byName };
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
