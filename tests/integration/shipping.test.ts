import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as migrateCountries } from '../../migrations/202611292001_country_codes.ts';
import { rebuildProjections } from '../../src/orders/store.ts';
import { ADDRESS_MESSAGES } from '../../src/shop/checkout-schema.ts';
import { SHIPPING_MESSAGES } from '../../src/shop/shipping-rules.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { setUpCardPaymentsApp } from '../support/stripe-stand-in.ts';

let app: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  admin = (await signedInSession(app, { role: 'admin' })).headers;
});
afterAll(async () => {
  await app?.close();
});

/** A settings form post on the admin page; answers its HTML. */
async function settingsForm(fields: Record<string, string | string[]>): Promise<string> {
  // A multi-select posts its field once per chosen option.
  const body = new URLSearchParams(
    Object.entries(fields).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map((v) => [name, v]),
    ),
  );
  const res = await fetch(`${app.url}/admin?tab=settings`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  return res.text();
}

async function methodId(name: string): Promise<number> {
  return (await app.services.db('shipping_methods').where({ name }).first('id')).id;
}

describe('shipping methods', () => {
  it('are seeded, edited in the settings, chosen at checkout and priced by the server; free over applies at the threshold', async () => {
    expect(await app.services.db('shipping_methods').orderBy('position').pluck('name')).toEqual([
      'Standard',
      'Express',
    ]);
    const express = await methodId('Express');
    // The settings refuse what is not a price, and save the rest: amounts in the shop's currency.
    expect(
      await settingsForm({
        intent: 'save-shipping-method',
        id: String(express),
        name: 'Express',
        price: '15.505',
        freeOver: '',
        countries: [],
      }),
    ).toContain(SHIPPING_MESSAGES.price);
    expect(
      await settingsForm({
        intent: 'save-shipping-method',
        id: String(express),
        name: 'Express',
        price: '15',
        freeOver: '40.00',
        countries: ['GB', 'IE'],
      }),
    ).toContain(SHIPPING_MESSAGES.saved);
    expect(await app.services.db('shipping_methods').where({ id: express }).first('countries')).toEqual({
      countries: ['GB', 'IE'],
    });
    expect(
      await settingsForm({
        intent: 'save-shipping-method',
        name: 'Standard',
        price: '1.00',
        freeOver: '',
        countries: [],
      }),
    ).toContain(SHIPPING_MESSAGES.nameTaken);
    expect(
      await settingsForm({
        intent: 'save-shipping-method',
        name: 'Pigeon',
        price: '0.99',
        freeOver: '',
        countries: ['NARNIA'],
      }),
    ).toContain(SHIPPING_MESSAGES.countries);
    expect(
      await settingsForm({
        intent: 'save-shipping-method',
        name: 'Pigeon',
        price: '0.99',
        freeOver: '',
        countries: ['DE'],
      }),
    ).toContain(SHIPPING_MESSAGES.saved);
    expect(
      await settingsForm({ intent: 'delete-shipping-method', id: String(await methodId('Pigeon')) }),
    ).toContain(SHIPPING_MESSAGES.deleted);
    expect(await settingsForm({ intent: 'delete-shipping-method', id: '999999' })).toContain(
      SHIPPING_MESSAGES.notFound,
    );

    // A mixed cart: an e-book (digital) and a mug; the address and a method are asked for.
    const ebook = await createProductRow(app.services.db, { category: 'Books', price: 1500, stock: null });
    await app.services.db('product_files').insert({
      product_id: ebook.id,
      name: 'E-book',
      file_name: 'e-book.pdf',
      storage_name: 'f'.repeat(32),
      content_type: 'application/pdf',
      size_bytes: 10,
    });
    const mug = await createProductRow(app.services.db, {
      category: 'Merchandise',
      price: 2500,
      stock: null,
    });
    const guest = new GuestClient(app);
    await guest.add(ebook.id);
    await guest.add(mug.id);
    const res = await fetch(`${app.url}/checkout`, { headers: { 'x-session-id': guest.sid ?? '' } });
    const page = (await res.text()).replaceAll('<!-- -->', '');
    expect(page).toContain('Shipping method');
    expect(page).toContain('name="address"');
    expect(page).toMatch(/Subtotal[\s\S]*\$40\.00[\s\S]*Shipping \(Standard\)[\s\S]*Free[\s\S]*Total/);

    // Refusals name the field.
    const unknown = await guest.checkout({ ...validCheckout, shippingMethod: 'Teleport' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.shippingMethod).toBe(SHIPPING_MESSAGES.choose);
    const elsewhere = await guest.checkout({
      ...validCheckout,
      country: 'CA',
      zipCode: 'K1A 0B1',
      shippingMethod: 'express',
    });
    expect(elsewhere.body.errors.shippingMethod).toBe(SHIPPING_MESSAGES.notToCountry('Express', 'Canada'));

    // $40.00 of items, Express free over $40.00: free at the threshold.
    const atThreshold = await guest.checkout({ ...validCheckout, shippingMethod: String(express) });
    expect(atThreshold.status).toBe(201);
    expect(atThreshold.body.totalAmount).toBe(4000);
    const first = await app.services.db('orders').where({ id: atThreshold.body.id }).first();
    expect(first).toMatchObject({ shipping_method: 'Express', shipping_cost: 0, total_amount: 4000 });

    // One cent under it, Express costs its price; the client never sends one.
    await app.services.db('shipping_methods').where({ id: express }).update({ free_over: 4001 });
    const buyer = new GuestClient(app);
    await buyer.add(ebook.id);
    await buyer.add(mug.id);
    const charged = await buyer.checkout({
      ...validCheckout,
      shippingMethod: 'Express',
      shippingCost: '0',
      totalAmount: '1',
    } as never);
    expect(charged.status).toBe(201);
    expect(charged.body.totalAmount).toBe(5500);
    const second = await app.services.db('orders').where({ id: charged.body.id }).first();
    expect(second).toMatchObject({ shipping_method: 'Express', shipping_cost: 1500, total_amount: 5500 });
    const [placed] = await app.services
      .db('order_events')
      .where({ order_id: charged.body.id, type: 'OrderPlaced' });
    expect(placed.data).toMatchObject({ shippingMethod: 'Express', shippingCost: 1500, totalAmount: 5500 });

    // The admin's order shows it; the projections rebuild to the same rows.
    const adminOrder = await (
      await fetch(`${app.url}/api/admin/orders/${charged.body.id}`, { headers: admin })
    ).json();
    expect(adminOrder.order).toMatchObject({
      shippingMethod: 'Express',
      shippingCost: 1500,
      totalAmount: 5500,
    });
    const before = await app.services.db('orders').orderBy('id');
    await rebuildProjections(app.services.db);
    expect(await app.services.db('orders').orderBy('id')).toEqual(before);
  });
});

describe('countries and postcodes', () => {
  it("accepts each country's postcodes by its format, refuses a wrong one naming the country, and offers a method for DE to Germany", async () => {
    const db = app.services.db;
    await db('shipping_methods').insert({ name: 'DHL Paket', price: 700, countries: ['DE'], position: 9 });
    const mug = await createProductRow(db, { category: 'Merchandise', price: 1000, stock: null });
    const checkoutTo = async (country: string, zipCode: string, shippingMethod?: string) => {
      const guest = new GuestClient(app);
      await guest.add(mug.id);
      return guest.checkout({
        ...validCheckout,
        country,
        zipCode,
        ...(shippingMethod ? { shippingMethod } : {}),
      });
    };
    for (const [country, zipCode] of [
      ['CH', '8001'],
      ['AT', '1010'],
      ['DK', '2000'],
      ['AU', '2000'],
      ['GB', 'SW1A 1AA'],
    ]) {
      const placed = await checkoutTo(country, zipCode);
      expect(placed.status, `${country} ${zipCode}`).toBe(201);
      expect(await db('orders').where({ id: placed.body.id }).first('country', 'postal_code')).toEqual({
        country,
        postal_code: zipCode,
      });
    }
    const wrong = await checkoutTo('CH', '80011');
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ zipCode: ADDRESS_MESSAGES.zipInvalid('Switzerland') });
    const missing = await checkoutTo('DE', '');
    expect(missing.body.errors).toEqual({ zipCode: ADDRESS_MESSAGES.zipRequired('Germany') });
    const nowhere = await checkoutTo('Narnia', '12345');
    expect(nowhere.body.errors).toEqual({ country: ADDRESS_MESSAGES.country });
    // Hong Kong has no postcodes: none is asked for, and the API may leave the field out.
    expect((await checkoutTo('HK', '')).status).toBe(201);
    const withoutZip = Object.fromEntries(
      Object.entries(validCheckout).filter(([field]) => field !== 'zipCode'),
    );
    const noZip = new GuestClient(app);
    await noZip.add(mug.id);
    expect((await noZip.checkout({ ...withoutZip, country: 'HK' })).status).toBe(201);
    await noZip.add(mug.id);
    expect((await noZip.checkout({ ...withoutZip, country: 'DE' })).body.errors).toEqual({
      zipCode: ADDRESS_MESSAGES.zipRequired('Germany'),
    });
    // The API takes a name too; the order keeps the code, and the DE method delivers there.
    const germany = await checkoutTo('Germany', '10115', 'DHL Paket');
    expect(germany.status).toBe(201);
    expect(await db('orders').where({ id: germany.body.id }).first('country', 'shipping_method')).toEqual({
      country: 'DE',
      shipping_method: 'DHL Paket',
    });
    expect((await checkoutTo('AT', '1010', 'DHL Paket')).body.errors).toEqual({
      shippingMethod: SHIPPING_MESSAGES.notToCountry('DHL Paket', 'Austria'),
    });

    // The checkout page offers the countries by name in a plain select, stored as codes.
    const guest = new GuestClient(app);
    await guest.add(mug.id);
    const page = await (
      await fetch(`${app.url}/checkout`, { headers: { 'x-session-id': guest.sid ?? '' } })
    ).text();
    expect(page).toMatch(/<select[^>]*name="country"/);
    expect(page).toContain('<option value="DE">Germany</option>');
  });

  it('the migration turns typed countries into codes and keeps what names no country', async () => {
    const db = app.services.db;
    const [{ id }] = await db('shipping_methods')
      .insert({ name: 'Old style', price: 100, countries: ['Germany', 'uk', 'at', 'Narnia'], position: 10 })
      .returning('id');
    await migrateCountries(db);
    expect(await db('shipping_methods').where({ id }).first('countries')).toEqual({
      countries: ['DE', 'GB', 'AT', 'Narnia'],
    });
  });
});

describe('shipping with card payments', () => {
  const card = setUpCardPaymentsApp('whsec_shipping');

  it('charges the shipping as a line of the Checkout Session, so Stripe asks for the order total', async () => {
    const mug = await createProductRow(card.app.services.db, {
      category: 'Merchandise',
      price: 2500,
      stock: null,
    });
    const guest = new GuestClient(card.app);
    await guest.add(mug.id, 2);
    const placed = await guest.checkout({ ...validCheckout, shippingMethod: 'Express' });
    expect(placed.status).toBe(201);
    expect(placed.body.totalAmount).toBe(6500);
    const [session] = [...card.stripe.sessions.values()];
    expect(session.line_items_sent).toEqual([
      { name: mug.name, unit_amount: 2500, quantity: 2 },
      { name: 'Shipping: Express', unit_amount: 1500, quantity: 1 },
    ]);
    expect(session.amount_total).toBe(6500);
  });
});
