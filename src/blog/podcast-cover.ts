import { escapeHtml } from '../kernel/escape.ts';
import { loadSharp } from '../media/sharp.ts';

/** Apple Podcasts wants a square JPEG or PNG of 1400–3000 px. */
export const PODCAST_COVER_SIZE = 1400;

/**
 * The podcast's cover: the brand mark and the blog's title on the brand gradient, drawn as SVG
 * and rasterized to a PNG podcast apps accept (the author picture may be an SVG or off-site).
 */
export function podcastCoverPng(title: string): Promise<Buffer> {
  // Rasterizing takes tens of milliseconds and every newsletter reader's mail client fetches it:
  // draw once per title.
  if (drawn?.title === title) return drawn.png;
  const png = drawCover(title);
  drawn = { title, png };
  png.catch(() => {
    if (drawn?.png === png) drawn = undefined;
  });
  return png;
}

let drawn: { title: string; png: Promise<Buffer> } | undefined;

async function drawCover(title: string): Promise<Buffer> {
  const size = PODCAST_COVER_SIZE;
  const label = title.length > 28 ? `${title.slice(0, 27)}…` : title;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 1400 1400">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#2563eb"/><stop offset="1" stop-color="#9333ea"/></linearGradient></defs>
  <rect width="1400" height="1400" fill="url(#g)"/>
  <g transform="translate(500 300) scale(12.5)"><rect width="32" height="32" rx="8" fill="#ffffff" fill-opacity="0.15"/><path d="M10 24V8h7a5 5 0 0 1 0 10h-4v6z" fill="#ffffff"/></g>
  <text x="700" y="1010" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="96" font-weight="700" fill="#ffffff">${escapeHtml(label)}</text>
  <text x="700" y="1130" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="60" fill="#ffffff" fill-opacity="0.85">Podcast</text>
</svg>`;
  const sharp = await loadSharp();
  return sharp(Buffer.from(svg)).png().toBuffer();
}
