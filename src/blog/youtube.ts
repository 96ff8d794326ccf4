const ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * The video id of a YouTube link (watch?v=, youtu.be short link, /embed/, /shorts/, /live/)
 * or a bare id as is. Anything else comes back trimmed and unchanged, for validation to judge.
 */
export function extractYouTubeId(input: string): string {
  const value = input.trim();
  if (ID.test(value)) return value;
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(value) ? value : `https://${value}`);
  } catch {
    return value;
  }
  const host = url.hostname.replace(/^(www\.|m\.|music\.)/, '');
  let candidate: string | null = null;
  if (host === 'youtu.be') candidate = url.pathname.split('/')[1] ?? null;
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    candidate = url.searchParams.get('v');
    const match = url.pathname.match(/^\/(embed|shorts|live|v)\/([^/?#]+)/);
    if (!candidate && match) candidate = match[2];
  }
  return candidate && ID.test(candidate) ? candidate : value;
}

export function isYouTubeId(value: string): boolean {
  return ID.test(value);
}
