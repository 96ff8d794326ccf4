import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETED_COMMENT_AUTHOR } from '../../src/blog/comments.ts';
import { ACCOUNT_MESSAGES, AUTH_MESSAGES } from '../../src/identity/messages.ts';
import { UPLOAD_MESSAGES } from '../../src/media/messages.ts';
import { executeOrderCommand } from '../../src/orders/changes.ts';
import { rebuildProjections } from '../../src/orders/store.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { createUser, signedInSession } from '../support/auth.ts';
import { publishedPost, seedDemo } from '../support/blog.ts';
import { untilOrderMailsRecorded } from '../support/order-mails.ts';
import { createProductRow, GuestClient, validCheckout } from '../support/shop.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { until } from '../support/until.ts';

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({ withWorker: true, env: { SMTP_URL: smtp.url } });
  await seedDemo(app);
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

/** The Account page's forms, posted as a browser without JavaScript posts them. */
async function post(cookie: string, fields: Record<string, string>) {
  const res = await fetch(`${app.url}/account`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: app.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, html: await res.text(), location: res.headers.get('location'), res };
}

const accountPage = async (cookie: string, query = '') =>
  (await fetch(`${app.url}/account${query}`, { headers: { cookie } })).text();

/** The page's text as read: React's escapes and its markers between adjacent text parts undone. */
const text = (html: string) =>
  html
    .replaceAll('<!-- -->', '')
    .replaceAll('&#x27;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');

async function uploadAvatar(cookie: string, body: Blob, fileName: string, accept = 'application/json') {
  const form = new FormData();
  form.append('file', body, fileName);
  return fetch(`${app.url}/api/users/avatar`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, origin: app.url, accept },
    body: form,
  });
}

/** A signed-in user's purchase through the API, as the shop's pages make it. */
async function buy(
  headers: Record<string, string>,
  productId: number,
  quantity = 1,
  details = validCheckout,
) {
  const json = { ...headers, 'content-type': 'application/json', accept: 'application/json' };
  const added = await fetch(`${app.url}/api/cart?action=add`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ productId, quantity }),
  });
  expect(added.status).toBe(201);
  const placed = await fetch(`${app.url}/api/orders`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(details),
  });
  expect(placed.status).toBe(201);
  return ((await placed.json()) as { id: number }).id;
}

const me = async (sid: string) =>
  (await fetch(`${app.url}/api/users?action=me`, { headers: { authorization: `Bearer ${sid}` } })).status;

describe('the Account page', () => {
  it('is for signed-in users only, page and avatar upload alike', async () => {
    const page = await fetch(`${app.url}/account`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/login?redirectTo=%2Faccount');
    const form = await post('', { intent: 'profile', username: 'someone' });
    expect(form.status).toBe(302);
    const avatar = await uploadAvatar('', new Blob(['x']), 'a.png');
    expect(avatar.status).toBe(401);
  });

  it('saves the profile and refuses a bad or taken username and an overlong name', async () => {
    const { user, cookie } = await signedInSession(app);
    await createUser(app, { username: 'Taken_Name' });

    const bad = await post(cookie, {
      intent: 'profile',
      firstName: 'Ada',
      lastName: '',
      username: 'no spaces',
    });
    expect(bad.status).toBe(400);
    expect(text(bad.html)).toContain(AUTH_MESSAGES.invalidUsername);
    const long = await post(cookie, { intent: 'profile', firstName: 'x'.repeat(101), username: 'fine' });
    expect(long.status).toBe(400);
    expect(text(long.html)).toContain(ACCOUNT_MESSAGES.nameTooLong);
    const taken = await post(cookie, { intent: 'profile', firstName: 'Ada', username: 'taken_name' });
    expect(taken.status).toBe(409);
    expect(text(taken.html)).toContain(AUTH_MESSAGES.usernameTaken);
    expect(await app.services.db('users').where({ id: user.id }).first('username')).toEqual({
      username: user.username,
    });

    const saved = await post(cookie, {
      intent: 'profile',
      firstName: ' Ada ',
      lastName: 'Lovelace',
      username: 'ada_l',
    });
    expect(saved.status).toBe(200);
    expect(saved.html).toContain(ACCOUNT_MESSAGES.profileSaved);
    expect(
      await app.services.db('users').where({ id: user.id }).first('first_name', 'last_name', 'username'),
    ).toEqual({ first_name: 'Ada', last_name: 'Lovelace', username: 'ada_l' });
    // Keeping one's own username (in another case too) is no conflict.
    const again = await post(cookie, { intent: 'profile', firstName: '', lastName: '', username: 'ada_l' });
    expect(again.status).toBe(200);
    expect(await app.services.db('users').where({ id: user.id }).first('first_name')).toEqual({
      first_name: null,
    });
  });

  it('takes an avatar through the upload pipeline and its limits, replaces and removes it', async () => {
    const { user, cookie } = await signedInSession(app);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    const first = await uploadAvatar(cookie, new Blob([new Uint8Array(png)]), 'me.png');
    expect(first.status).toBe(201);
    const { url } = (await first.json()) as { url: string };
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    expect((await fetch(`${app.url}${url}`)).status).toBe(200);
    expect(await accountPage(cookie)).toContain(`src="${url}"`);

    // Without JavaScript the form goes back to the page, which says what happened.
    const notImage = await uploadAvatar(cookie, new Blob(['plain text']), 'me.txt', 'text/html');
    expect(notImage.status).toBe(303);
    expect(notImage.headers.get('location')).toBe('/account?avatar=notImage#profile');
    expect(await accountPage(cookie, '?avatar=notImage')).toContain(UPLOAD_MESSAGES.notImage);
    const huge = new Uint8Array(10 * 1024 * 1024 + 1);
    huge.set(png.subarray(0, 16));
    const tooLarge = await uploadAvatar(cookie, new Blob([huge]), 'huge.png');
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { message: string }).message).toBe(UPLOAD_MESSAGES.tooLarge);

    const second = await uploadAvatar(cookie, new Blob([new Uint8Array(png)]), 'me2.png', 'text/html');
    expect(second.status).toBe(303);
    expect(second.headers.get('location')).toBe('/account?avatar=saved#profile');
    expect(await accountPage(cookie, '?avatar=saved')).toContain(ACCOUNT_MESSAGES.avatarSaved);
    const row = await app.services.db('users').where({ id: user.id }).first('profile_image_url');
    expect(row.profile_image_url).not.toBe(url);
    // The replaced image is gone from storage.
    expect((await fetch(`${app.url}${url}`)).status).toBe(404);

    const removed = await post(cookie, { intent: 'avatar-remove' });
    expect(removed.html).toContain(ACCOUNT_MESSAGES.avatarRemoved);
    expect((await fetch(`${app.url}${row.profile_image_url}`)).status).toBe(404);
    expect(await app.services.db('users').where({ id: user.id }).first('profile_image_url')).toEqual({
      profile_image_url: null,
    });
  });

  it('changes the password on the path of the API: rules, the current password, other sessions end, a mail', async () => {
    const user = await createUser(app, { username: 'changer' });
    const signIn = async (password: string) => {
      const res = await fetch(`${app.url}/api/users?action=login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'changer', password }),
      });
      return ((await res.json()) as { token?: string }).token;
    };
    const here = await signIn(user.password);
    const elsewhere = await signIn(user.password);
    if (!here || !elsewhere) throw new Error('sign-in failed');
    const cookie = `sid=${here}`;
    const change = (fields: Record<string, string>) => post(cookie, { intent: 'password', ...fields });

    const mismatch = await change({
      currentPassword: user.password,
      newPassword: 'N3w!passw0rd',
      confirmPassword: 'x',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.html).toContain(AUTH_MESSAGES.passwordsDoNotMatch);
    const weak = await change({
      currentPassword: user.password,
      newPassword: 'weak',
      confirmPassword: 'weak',
    });
    expect(weak.status).toBe(400);
    expect(weak.html).toContain(AUTH_MESSAGES.weakPassword);
    const wrong = await change({
      currentPassword: 'Wr0ng!pass',
      newPassword: 'N3w!passw0rd',
      confirmPassword: 'N3w!passw0rd',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain(AUTH_MESSAGES.currentPasswordWrong);
    expect(await me(elsewhere)).toBe(200);

    const changed = await change({
      currentPassword: user.password,
      newPassword: 'N3w!passw0rd',
      confirmPassword: 'N3w!passw0rd',
    });
    expect(changed.status).toBe(200);
    expect(changed.html).toContain(ACCOUNT_MESSAGES.passwordChanged);
    expect(await me(elsewhere)).toBe(401);
    expect(await me(here)).toBe(200);
    expect(await signIn(user.password)).toBeUndefined();
    expect(await signIn('N3w!passw0rd')).toBeTruthy();
    await until(
      () =>
        smtp.messages.some(
          (m) => m.to.includes(user.email) && m.subject === 'Your Penstand password was changed',
        ),
      'the password-change mail',
    );
  });

  it("lists the user's orders with status, payment, lines and tracking, and never another user's", async () => {
    const a = await signedInSession(app);
    const b = await signedInSession(app);
    const lamp = await createProductRow(app.services.db, { name: 'Brass Reading Lamp', price: 4200 });
    const mug = await createProductRow(app.services.db, { name: 'Enamel Camp Mug', price: 1500 });
    const aOrder = await buy(a.headers, lamp.id, 2);
    const bOrder = await buy(b.headers, mug.id);
    // A guest order under A's verified address is A's too (the rule of 'My orders' in the API).
    const guest = new GuestClient(app);
    await guest.add(mug.id);
    const admin = await signedInSession(app, { role: 'admin' });
    const code = await fetch(`${app.url}/api/admin/discounts`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'FRIENDS', type: 'fixed', value: 500 }),
    });
    expect(code.status).toBe(201);
    const guestOrder = (
      await guest.checkout({
        ...validCheckout,
        customerEmail: a.user.email.toUpperCase(),
        discountCode: 'FRIENDS',
      })
    ).body.id as number;

    await executeOrderCommand(app.services.db, aOrder, { type: 'RecordPayment' });
    await executeOrderCommand(app.services.db, aOrder, {
      type: 'ShipOrder',
      trackingNumber: 'TRK-123',
      carrier: 'Parcel Co',
      trackingUrl: 'https://track.example/TRK-123',
    });

    const aPage = text(await accountPage(a.cookie));
    const listed = (page: string, id: number) => page.includes(`href="/orders/${id}?key=`);
    expect(listed(aPage, aOrder)).toBe(true);
    expect(listed(aPage, guestOrder)).toBe(true);
    expect(aPage).toContain('2 × Brass Reading Lamp');
    expect(aPage).toContain('Payment received');
    expect(aPage).toContain('shipped');
    expect(aPage).toContain('href="https://track.example/TRK-123"');
    expect(aPage).toContain('Awaiting payment');
    // Its lines add up: the discount is shown beside the total.
    expect(aPage).toMatch(/Discount \(FRIENDS\)<\/span><span>−\$5\.00/);
    expect(listed(aPage, bOrder)).toBe(false);

    const bPage = text(await accountPage(b.cookie));
    expect(listed(bPage, bOrder)).toBe(true);
    expect(bPage).toContain('1 × Enamel Camp Mug');
    expect(bPage).not.toContain('Brass Reading Lamp');
    expect(listed(bPage, aOrder)).toBe(false);
    expect(listed(bPage, guestOrder)).toBe(false);
  });
});

describe('Delete my account', () => {
  it('needs the email typed, and refuses an admin', async () => {
    const { cookie, sid } = await signedInSession(app);
    const empty = await post(cookie, { intent: 'delete-account', confirmEmail: ' ' });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain(ACCOUNT_MESSAGES.deleteConfirmRequired);
    const wrong = await post(cookie, { intent: 'delete-account', confirmEmail: 'someone@example.com' });
    expect(wrong.status).toBe(400);
    expect(text(wrong.html)).toContain(ACCOUNT_MESSAGES.deleteConfirmMismatch);
    expect(await me(sid)).toBe(200);

    const admin = await signedInSession(app, { role: 'admin' });
    const refused = await post(admin.cookie, { intent: 'delete-account', confirmEmail: admin.user.email });
    expect(refused.status).toBe(409);
    expect(text(refused.html)).toContain(ACCOUNT_MESSAGES.adminCannotDelete);
    expect(await app.services.db('users').where({ id: admin.user.id }).first('id')).toBeTruthy();
  });

  it('anonymises the comments, keeps the orders with the customer erased (rebuild agrees), signs out and mails', async () => {
    const { db } = app.services;
    const leaving = await signedInSession(app, {
      email: 'leaving@example.com',
      firstName: 'Lee',
      lastName: 'Ving',
    });
    const staying = await signedInSession(app);
    const product = await createProductRow(db, { name: 'Linen Notebook', price: 2500 });
    const orderId = await buy(leaving.headers, product.id, 3, {
      ...validCheckout,
      customerEmail: 'leaving@example.com',
    });
    await executeOrderCommand(db, orderId, { type: 'RecordPayment' });
    const otherOrder = await buy(staying.headers, product.id);
    const post_ = await publishedPost(app);
    const [mine, theirs] = await db('comments')
      .insert([
        {
          post_id: post_.id,
          author: 'Lee',
          email: 'Leaving@Example.com',
          content: 'My words stay.',
          approved: true,
        },
        { post_id: post_.id, author: 'Sam', email: staying.user.email, content: 'Mine too.', approved: true },
      ])
      .returning('id');
    // The order's mails (its confirmation, then the payment's receipt with the invoice) went out
    // before the deletion. Their records may be written after it (the worker records in batches).
    await until(
      () =>
        smtp.messages.some(
          (m) =>
            m.to.includes('leaving@example.com') && m.subject === `Payment received for order #${orderId}`,
        ),
      'the payment receipt',
    );
    const before = await db('orders').where({ id: orderId }).first();
    const itemsBefore = await db('order_items').where({ order_id: orderId }).orderBy('id');

    const deleted = await post(leaving.cookie, {
      intent: 'delete-account',
      confirmEmail: ' LEAVING@example.com ',
    });
    expect(deleted.status).toBe(302);
    expect(deleted.location).toBe('/');
    // Signed out: the old session is gone, a guest one replaces it.
    const newSid = /sid=([^;]+)/.exec(deleted.res.headers.getSetCookie().join('; '))?.[1];
    expect(newSid).toBeTruthy();
    expect(newSid).not.toBe(leaving.sid);
    expect(await me(leaving.sid)).toBe(401);
    expect(await db('users').where({ id: leaving.user.id }).first('id')).toBeUndefined();
    expect(await db('sessions').where({ user_id: leaving.user.id }).first('sid')).toBeUndefined();

    expect(await db('comments').where({ id: mine.id }).first('author', 'email', 'content')).toEqual({
      author: DELETED_COMMENT_AUTHOR,
      email: '',
      content: 'My words stay.',
    });
    expect(await db('comments').where({ id: theirs.id }).first('author')).toEqual({ author: 'Sam' });

    const after = await db('orders').where({ id: orderId }).first();
    expect(after).toMatchObject({
      user_id: null,
      session_id: null,
      email: '',
      first_name: 'Deleted',
      last_name: 'user',
      phone: null,
      address: '',
      city: '',
      postal_code: '',
      country: before.country,
      total_amount: before.total_amount,
      status: 'processing',
      payment_status: 'paid',
    });
    expect(await db('order_items').where({ order_id: orderId }).orderBy('id')).toEqual(itemsBefore);
    // No event of the stream keeps who the customer was, the mails' records included.
    const mailRecords = () =>
      db('order_events')
        .where({ order_id: orderId })
        .whereIn('type', ['ConfirmationEmailSent', 'OrderMailSent'])
        .count({ n: '*' })
        .first();
    await until(async () => Number((await mailRecords())?.n) === 2, 'the records of both mails');
    const stream = await db('order_events').where({ order_id: orderId }).orderBy('version');
    expect(stream.filter((e) => e.type === 'CustomerDataErased')).toHaveLength(1);
    const streamText = JSON.stringify(stream.map((e) => e.data)).toLowerCase();
    for (const personal of ['leaving@example.com', validCheckout.address.toLowerCase(), 'lovelace', 'london'])
      expect(streamText).not.toContain(personal);
    // The other customer's order is untouched.
    expect(await db('orders').where({ id: otherOrder }).first('email')).toEqual({
      email: validCheckout.customerEmail,
    });

    // The worker may still be confirming the orders of the test before, or mailing the payment and
    // the shipping of one of them (each record is an event that moves its order's version): compare
    // once it has recorded every mail of every order (this order's were awaited above).
    await untilOrderMailsRecorded(db);
    const projection = async () => ({
      orders: await db('orders').orderBy('id'),
      items: await db('order_items').orderBy('id'),
    });
    const live = await projection();
    await rebuildProjections(db);
    expect(await projection()).toEqual(live);

    await until(
      () =>
        smtp.messages.some(
          (m) => m.to.includes('leaving@example.com') && m.subject === 'Your Penstand account is deleted',
        ),
      'the deletion confirmation',
    );
    // The old session can do nothing more.
    const again = await post(leaving.cookie, {
      intent: 'delete-account',
      confirmEmail: 'leaving@example.com',
    });
    expect(again.status).toBe(302);
    expect(again.location).toBe('/login?redirectTo=%2Faccount');
  });
});
