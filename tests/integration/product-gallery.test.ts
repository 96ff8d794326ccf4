import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportSite } from '../../src/import/penstand.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow } from '../support/shop.ts';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInSession>>;
beforeAll(async () => {
  app = await startTestApp();
  admin = await signedInSession(app, { role: 'admin' });
});
afterAll(() => app?.close());

const api = async (method: string, path: string, body: unknown) => {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { ...admin.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

const gallery = ['/demo/a.webp', 'https://cdn.example.com/b.jpg', '/demo/c.webp'];
const mug = { name: 'Mug', description: 'A mug', category: 'Merchandise', price: 1299 };

it('keeps a gallery in order through the API, its first image being the product image', async () => {
  const created = await api('POST', '/api/products', { ...mug, images: gallery });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ image: '/demo/a.webp', images: gallery });
  const id = created.body.id;

  const reordered = await api('PUT', `/api/products?id=${id}`, { images: [gallery[2], gallery[0]] });
  expect(reordered.body).toMatchObject({ image: '/demo/c.webp', images: ['/demo/c.webp', '/demo/a.webp'] });

  // An update that leaves the images out keeps them (and everything else it leaves out).
  const priced = await api('PUT', `/api/products?id=${id}`, { price: 1500 });
  expect(priced.body).toMatchObject({
    price: 1500,
    images: ['/demo/c.webp', '/demo/a.webp'],
    status: 'active',
  });

  // A client that knows only `image` replaces the first image and keeps the rest.
  const lead = await api('PUT', `/api/products?id=${id}`, { image: '/demo/d.webp' });
  expect(lead.body).toMatchObject({ image: '/demo/d.webp', images: ['/demo/d.webp', '/demo/a.webp'] });
  const cleared = await api('PUT', `/api/products?id=${id}`, { images: [] });
  expect(cleared.body).toMatchObject({ image: null, images: [] });

  const read = await (await fetch(`${app.url}/api/products/${id}`)).json();
  expect(read.product ?? read).toMatchObject({ images: [] });
});

it('refuses bad images with a 400 that says which', async () => {
  const bad = await api('POST', '/api/products', {
    ...mug,
    images: ['/demo/ok.webp', 'javascript:alert(1)'],
  });
  expect(bad.status).toBe(400);
  expect(bad.body.message).toBe(
    'images.1: Image must be a URL or an image of this site (/uploads/ or /demo/)',
  );
  const many = await api('POST', '/api/products', { ...mug, images: Array(13).fill('/demo/a.webp') });
  expect(many.status).toBe(400);
  expect(many.body.message).toBe('images: A product can have at most 12 images');
  const notList = await api('POST', '/api/products', { ...mug, images: '/demo/a.webp' });
  expect(notList.status).toBe(400);
  expect(notList.body.message).toBe('images: Images must be a list of image links');
});

it('saves the images from the admin editor in the order of its fields, dropping emptied ones', async () => {
  const product = await createProductRow(app.services.db, { image: '/demo/old.webp' });
  const form = new URLSearchParams({ ...mug, price: '1299', status: 'active' });
  for (const src of ['/demo/two.webp', '', '/demo/one.webp', '/demo/new.webp']) form.append('images', src);
  const res = await fetch(`${app.url}/admin/products/${product.id}`, {
    method: 'POST',
    headers: { ...admin.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  expect(res.status).toBeLessThan(400);
  const row = await app.services.db('products').where({ id: product.id }).first('image', 'images');
  expect(row).toEqual({
    image: '/demo/two.webp',
    images: ['/demo/two.webp', '/demo/one.webp', '/demo/new.webp'],
  });

  const editor = await (
    await fetch(`${app.url}/admin/products/${product.id}`, { headers: admin.headers })
  ).text();
  expect(editor).toContain('<legend>Images</legend>');
  expect(editor.match(/name="images"/g)).toHaveLength(4);
});

it('shows every image on the product page, with thumbnails linking to each, and lists them in JSON-LD', async () => {
  const created = await api('POST', '/api/products', { ...mug, images: gallery });
  const html = await (await fetch(`${app.url}/product/${created.body.id}`)).text();
  for (const [index, src] of gallery.entries()) {
    expect(html).toContain(`id="product-image-${index + 1}"`);
    expect(html).toContain(`alt="Mug, image ${index + 1} of 3"`);
    expect(html).toContain(`href="#product-image-${index + 1}"`);
    expect(html).toContain(`src="${src}"`);
  }
  const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}');
  expect(ld.image).toEqual([
    `${app.services.publicUrl}/demo/a.webp`,
    gallery[1],
    `${app.services.publicUrl}/demo/c.webp`,
  ]);

  // One image: the picture alone, no gallery controls.
  const single = await createProductRow(app.services.db, { image: '/demo/only.webp' });
  const singleHtml = await (await fetch(`${app.url}/product/${single.id}`)).text();
  expect(singleHtml).not.toContain('gallery-thumbs');
  expect(singleHtml).toContain(`alt="${single.name}"`);
});

it('carries the gallery in the site export', async () => {
  const created = await api('POST', '/api/products', { ...mug, name: 'Exported mug', images: gallery });
  const exported = await exportSite(app.services.db);
  expect(exported.products.find((p) => p.id === created.body.id)).toMatchObject({
    image: '/demo/a.webp',
    images: gallery,
  });
});
