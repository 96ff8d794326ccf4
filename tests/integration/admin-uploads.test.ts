import { readdir, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../../src/media/messages.ts';
import { getBlogSettings, updateBlogSettings } from '../../src/settings/settings.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { type S3Server, startS3Server } from '../support/s3.ts';
import { createProductRow, GuestClient } from '../support/shop.ts';

let s3: S3Server;
let png: Buffer;

beforeAll(async () => {
  s3 = await startS3Server();
  png = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#2563eb' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await s3?.close();
});

/** Every stored file with its size, in a local directory or a bucket. */
async function listDir(dir: string): Promise<Map<string, number>> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return new Map(
    await Promise.all(names.map(async (name) => [name, (await stat(path.join(dir, name))).size] as const)),
  );
}

/** Spool directories the S3 storage leaves behind (it must leave none). */
async function spools(): Promise<string[]> {
  return (await readdir(os.tmpdir())).filter((name) => name.startsWith('penstand-upload-'));
}

describe.each(['local', 's3'] as const)('uploads with %s storage', (storage) => {
  let app: TestApp;
  let admin: Awaited<ReturnType<typeof signedInSession>>;
  const bucket = 'penstand-uploads-test';

  beforeAll(async () => {
    const env = storage === 's3' ? await s3.createBucket(bucket) : {};
    app = await startTestApp({ withWorker: true, env });
    admin = await signedInSession(app, { role: 'admin' });
  });
  afterAll(async () => {
    await app?.close();
  });

  function upload(body: Blob, fileName: string, headers = admin.headers) {
    const form = new FormData();
    form.append('file', body, fileName);
    return fetch(`${app.url}/api/uploads`, { method: 'POST', body: form, headers });
  }

  async function stored(): Promise<Map<string, number>> {
    return storage === 's3' ? s3.list(bucket) : listDir(app.services.config.uploadsDir);
  }

  async function storedFiles(): Promise<string[]> {
    return [...(await stored()).keys()].sort();
  }

  describe('POST /api/uploads', () => {
    it('accepts a PNG named .exe as a PNG, stores it under a random name and makes the WebP variants', async () => {
      const res = await upload(
        new Blob([new Uint8Array(png)], { type: 'application/x-msdownload' }),
        'setup.exe',
      );
      expect(res.status).toBe(201);
      const { url } = (await res.json()) as { url: string };
      expect(url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
      const served = await fetch(`${app.url}${url}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('cache-control')).toContain('max-age=31536000');
      // Re-encoded without metadata: the same picture, not the same bytes.
      const servedMeta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect([servedMeta.format, servedMeta.width, servedMeta.height]).toEqual(['png', 64, 32]);

      const base = url.slice('/uploads/'.length, -'.png'.length);
      for (const size of ['1200x630', '1920x800', '800x400']) {
        await expect
          .poll(async () => (await storedFiles()).includes(`${base}-${size}.webp`), { timeout: 15_000 })
          .toBe(true);
      }
      const variant = await fetch(`${app.url}/uploads/${base}-1200x630.webp`);
      expect(variant.status).toBe(200);
      expect(variant.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await variant.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1200, 630]);

      // Pages show an upload through its variants: the post's featured image, its card on /blog.
      await app.services.db('posts').insert({
        title: 'With an upload',
        slug: `with-an-upload-${storage}`,
        content: 'Body',
        excerpt: 'Excerpt',
        category: 'Life',
        status: 'published',
        published_at: new Date(),
        featured_image_file: url,
      });
      const page = await (await fetch(`${app.url}/post/with-an-upload-${storage}`)).text();
      expect(page).toMatch(
        new RegExp(
          `<picture><source type="image/webp" srcSet="/uploads/${base}-1200x630.webp" width="1200" height="630"/><img src="${url}"[^>]* width="1200" height="630"/></picture>`,
        ),
      );
      const blog = await (await fetch(`${app.url}/blog`)).text();
      expect(blog).toContain(`srcSet="/uploads/${base}-800x400.webp"`);
      // A variant asked for before the worker made it (here: gone) sends the reader to the original.
      await app.services.uploads.delete(`${base}-800x400.webp`);
      const early = await fetch(`${app.url}/uploads/${base}-800x400.webp`, { redirect: 'manual' });
      expect(early.status).toBe(307);
      expect(early.headers.get('location')).toBe(url);
      expect(early.headers.get('cache-control')).toBe('no-store');
    });

    it('shows an uploaded product image and author portrait through their WebP variants', async () => {
      const res = await upload(new Blob([new Uint8Array(png)], { type: 'image/png' }), 'mug.png');
      expect(res.status).toBe(201);
      const { url } = (await res.json()) as { url: string };
      const base = url.slice('/uploads/'.length, -'.png'.length);
      const product = await createProductRow(app.services.db, { name: `Mug ${storage}`, image: url });
      await updateBlogSettings(app.services.db, {
        ...(await getBlogSettings(app.services.db)),
        socialLinks: { youtube: '', github: '', twitter: '', linkedin: '' },
        authorProfileImage: url,
      });
      const guest = new GuestClient(app);
      expect((await guest.add(product.id)).status).toBe(201);
      const html = async (path: string, cookie?: string) =>
        (await fetch(`${app.url}${path}`, { headers: cookie ? { cookie } : {} })).text();
      const picture = (variant: string, width: number, height: number) =>
        new RegExp(
          `<picture><source type="image/webp" srcSet="/uploads/${base}-${variant}.webp" width="\\d+" height="\\d+"/><img [^>]*src="${url}"[^>]* width="${width}" height="${height}"[^>]*/></picture>`,
        );
      expect(await html('/shop')).toMatch(picture('800x400', 400, 300));
      expect(await html(`/product/${product.id}`)).toMatch(picture('1200x630', 640, 480));
      expect(await html('/cart', `sid=${guest.sid}`)).toMatch(picture('800x400', 96, 96));
      expect(await html('/about')).toMatch(picture('800x400', 160, 160));
    });

    it('publishes a photo without its EXIF metadata (GPS position included), upright', async () => {
      const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#16a34a' } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .withExifMerge({ IFD0: { Make: 'PenstandCam' }, IFD3: { GPSLatitudeRef: 'N' } })
        .toBuffer();
      expect((await sharp(photo).metadata()).exif).toBeDefined();
      const res = await upload(new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'holiday.jpg');
      expect(res.status).toBe(201);
      const { url } = (await res.json()) as { url: string };
      const served = Buffer.from(await (await fetch(`${app.url}${url}`)).arrayBuffer());
      const meta = await sharp(served).metadata();
      expect(meta.exif).toBeUndefined();
      expect(served.includes('PenstandCam')).toBe(false);
      // Orientation 6 (rotated 90°) is applied before it goes: the picture is 20 wide and 40 high.
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 20, 40]);
      // Its variants are made in the background: wait for them, so later tests count files alone.
      const base = url.slice('/uploads/'.length, -'.jpg'.length);
      await expect
        .poll(async () => (await storedFiles()).filter((f) => f.startsWith(`${base}-`)).length, {
          timeout: 15_000,
        })
        .toBe(3);
    });

    it('refuses image magic bytes in front of something that is not an image', async () => {
      const before = await storedFiles();
      const res = await upload(
        new Blob([new Uint8Array([...png.subarray(0, 8), ...Buffer.from('not really a png')])], {
          type: 'image/png',
        }),
        'fake.png',
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: UPLOAD_MESSAGES.notImage });
      expect(await storedFiles()).toEqual(before);
    });

    it('refuses an HTML file named .png', async () => {
      const before = await storedFiles();
      const res = await upload(
        new Blob(['<!doctype html><script>alert(1)</script>'], { type: 'image/png' }),
        'cat.png',
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: UPLOAD_MESSAGES.notImage });
      expect(await storedFiles()).toEqual(before);
    });

    it('refuses a file over 10 MB with the exact message and keeps nothing of it', async () => {
      const before = await storedFiles();
      const big = Buffer.alloc(11 * 1024 * 1024, 0);
      png.copy(big); // a real PNG signature: only the size is wrong
      const res = await upload(new Blob([new Uint8Array(big)]), 'big.png');
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: 'File size must be less than 10MB' });
      expect(await storedFiles()).toEqual(before);
      expect(await spools()).toEqual([]);
    });

    it('stops reading a request far larger than the limit instead of taking it all in', async () => {
      const url = new URL(`${app.url}/api/uploads`);
      const boundary = 'penstandboundary';
      const total = 200 * 1024 * 1024;
      let written = 0;
      const outcome = await new Promise<{ status?: number; body: string }>((resolve) => {
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { ...admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c) => {
              body += c;
            });
            res.on('end', () => resolve({ status: res.statusCode, body }));
            res.on('error', () => resolve({ status: res.statusCode, body }));
          },
        );
        req.on('error', () => resolve({ body: '' }));
        req.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
        );
        req.write(png.subarray(0, 16));
        const chunk = Buffer.alloc(256 * 1024);
        const pump = () => {
          while (written < total) {
            written += chunk.length;
            if (!req.write(chunk)) {
              req.once('drain', pump);
              return;
            }
          }
          req.end(`\r\n--${boundary}--\r\n`);
        };
        req.on('close', () => resolve({ body: '' }));
        pump();
      });
      // The server answered (or hung up) long before the client could send all 200 MB.
      expect(written).toBeLessThan(total);
      if (outcome.status !== undefined) expect(outcome.status).toBe(413);
      expect(written).toBeLessThan(MAX_UPLOAD_BYTES * 4);
      // Give an aborted store the moment it needs to clean up before looking.
      await expect.poll(spools).toEqual([]);
      for (const [file, size] of await stored()) expect(size, file).toBeLessThan(MAX_UPLOAD_BYTES);
    });

    it('never lets a file name choose where the file goes', async () => {
      const res = await upload(new Blob([new Uint8Array(png)]), '../../../etc/evil.png');
      expect(res.status).toBe(201);
      const { url } = (await res.json()) as { url: string };
      expect(url).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
      expect(await storedFiles()).toContain(url.slice('/uploads/'.length));
    });

    it('is for admins only', async () => {
      const anonymous = await upload(new Blob([new Uint8Array(png)]), 'a.png', {
        origin: app.url,
      } as typeof admin.headers);
      expect(anonymous.status).toBe(401);
      const user = await signedInSession(app, { role: 'user' });
      expect((await upload(new Blob([new Uint8Array(png)]), 'a.png', user.headers)).status).toBe(403);
    });
  });

  describe('GET /uploads/*', () => {
    let url: string;
    beforeAll(async () => {
      const res = await upload(new Blob([new Uint8Array(png)]), 'photo.png');
      ({ url } = (await res.json()) as { url: string });
    });

    it('answers HEAD and conditional requests without the body', async () => {
      const head = await fetch(`${app.url}${url}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('image/png');
      expect(head.headers.get('content-length')).toBe(String(png.length));
      const lastModified = head.headers.get('last-modified')!;
      // Not fetch: it adds `Cache-Control: no-cache` to conditional requests, as browsers do on reload.
      const again = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
        http
          .get(`${app.url}${url}`, { headers: { 'if-modified-since': lastModified } }, (res) => {
            let body = '';
            res.on('data', (chunk) => {
              body += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode, body }));
          })
          .on('error', reject);
      });
      expect(again).toEqual({ status: 304, body: '' });
    });

    it('serves nothing outside the stored names', async () => {
      for (const probe of [
        '/uploads/..%2f..%2fpackage.json',
        '/uploads/%2e%2e/package.json',
        '/uploads/../package.json',
        '/uploads/.env',
        `/uploads/${url.slice('/uploads/'.length, -4)}.svg`,
        '/uploads/0123456789abcdef0123456789abcdef.png',
      ]) {
        const res = await fetch(`${app.url}${probe}`);
        expect(res.status, probe).toBe(404);
        expect(res.headers.get('content-type'), probe).toMatch(/^text\/html/);
      }
    });
  });

  if (storage === 's3') {
    it('writes nothing to the local uploads directory', async () => {
      expect((await storedFiles()).length).toBeGreaterThan(0);
      expect(await listDir(app.services.config.uploadsDir)).toEqual(new Map());
    });
  }
});
