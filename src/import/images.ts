import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { useAgent } from 'request-filtering-agent';
import type { Queues } from '../jobs/queues.ts';
import { MAX_UPLOAD_BYTES } from '../media/messages.ts';
import type { UploadStorage } from '../media/storage.ts';
import { storeFile } from '../media/uploads.ts';

const EXTENSIONS = ['jpg', 'png', 'webp', 'gif'] as const;
const MARKDOWN_IMAGE = /(!\[[^\]]*\]\()([^\s)]+)/g;
const HTML_IMAGE = /(<img\b[^>]*?\ssrc=")([^"]+)/g;

/** The body, refused past the upload limit while it arrives. */
async function readLimited(body: AsyncIterable<Uint8Array> | null): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.length;
    if (size > MAX_UPLOAD_BYTES) throw new Error(`larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const MAX_REDIRECTS = 5;

function get(url: string, allowed: string[], signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    client
      .get(url, { agent: useAgent(url, { allowIPAddressList: allowed }), signal }, resolve)
      .on('error', reject);
  });
}

/**
 * GETs an address of the public internet, following redirects. The agent checks the address a
 * name resolves to when it connects (so a name that changes its answer gains nothing): loopback,
 * private, link-local and reserved addresses are refused, unless listed in `allowed`, and so at
 * every redirect. An export file from someone else must not make the server probe its own network.
 */
export async function getPublic(
  url: string,
  allowed: string[],
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (!/^https?:\/\//i.test(current)) throw new Error('not an http(s) address');
    const response = await get(current, allowed, signal);
    const location = response.headers.location;
    const status = response.statusCode ?? 0;
    if (status < 300 || status >= 400 || !location) return response;
    response.resume();
    current = new URL(location, current).href;
  }
  throw new Error(`more than ${MAX_REDIRECTS} redirects`);
}

/**
 * Copies an old site's images into this site's storage (re-encoded without metadata, WebP
 * variants queued, as an upload), once per address. The stored name derives from the address,
 * so importing the same file again finds the copy instead of fetching it anew. A failure is
 * reported through warn and the old address stays.
 */
export function createImageCopier(
  services: { uploads: UploadStorage; queues?: Queues },
  warn: (text: string) => void,
  /** Non-public addresses images may still come from (an old site on the same network). */
  allowedAddresses: string[] = [],
) {
  const copies = new Map<string, string | null>();

  async function copy(url: string): Promise<string | null> {
    const base = createHash('md5').update(url).digest('hex');
    for (const ext of EXTENSIONS) {
      const existing = await services.uploads.get(`${base}.${ext}`);
      if (existing) {
        existing.body.destroy();
        return `/uploads/${base}.${ext}`;
      }
    }
    try {
      const response = await getPublic(url, allowedAddresses, AbortSignal.timeout(15_000));
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.resume();
        throw new Error(`HTTP ${status}`);
      }
      const stored = await storeFile(Readable.from([await readLimited(response)]), services.uploads, base);
      await services.queues?.enqueue(
        'media.variants',
        { fileName: stored.fileName },
        { jobId: `variants-${stored.fileName}` },
      );
      return stored.url;
    } catch (error) {
      warn(`image ${url} not copied: ${(error as Error).message}`);
      return null;
    }
  }

  /** This site's address of a copy of the image, or null when it could not be copied. */
  async function localize(url: string): Promise<string | null> {
    if (!/^https?:\/\//i.test(url)) return null;
    if (!copies.has(url)) copies.set(url, await copy(url));
    return copies.get(url) ?? null;
  }

  /** Markdown (and the HTML kept in it) with every copied image pointing at its copy. */
  async function rewrite(markdown: string): Promise<string> {
    const urls = new Set(
      [...markdown.matchAll(MARKDOWN_IMAGE), ...markdown.matchAll(HTML_IMAGE)].map((m) => m[2]),
    );
    const local = new Map<string, string>();
    for (const url of urls) {
      const copied = await localize(url);
      if (copied) local.set(url, copied);
    }
    const swap = (_: string, before: string, url: string) => before + (local.get(url) ?? url);
    return markdown.replace(MARKDOWN_IMAGE, swap).replace(HTML_IMAGE, swap);
  }

  return { localize, rewrite };
}
