import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { signedInSession } from '../support/auth.ts';
import { createTierViaApi } from '../support/members.ts';

/** /membership on a site without Stripe keys: the tiers and their prices, no way to pay, comps still given. */
let app: TestApp;
let admin: Record<string, string>;
let tierId: number;

beforeAll(async () => {
  app = await startTestApp();
  admin = (await signedInSession(app, { role: 'admin' })).headers;
  tierId = (await createTierViaApi(app, admin, { name: 'Friends', monthlyPrice: 300, yearlyPrice: 3000 })).id;
});
afterAll(async () => {
  await app?.close();
});

describe('/membership without Stripe', () => {
  it('shows the tiers’ prices and says paid tiers need Stripe, with no form to pay', async () => {
    const page = await (await fetch(`${app.url}/membership`)).text();
    expect(page).toContain('Friends');
    expect(page).toContain('$3.00 a month · $30.00 a year');
    expect(page).toContain('Paid tiers need Stripe: the site’s owner has not set up card payments yet.');
    expect(page).not.toContain('action="/membership"');
  });

  it('answers a subscription with the same words, and still lets the admin comp a member', async () => {
    const reader = await signedInSession(app);
    const res = await fetch(`${app.url}/api/members?action=subscribe`, {
      method: 'POST',
      headers: { ...reader.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ tierId, interval: 'month' }),
    });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe(
      'Paid tiers need Stripe: the site’s owner has not set up card payments yet.',
    );
    const comp = await fetch(`${app.url}/api/admin/members/${reader.user.id}?action=comp`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ tierId }),
    });
    expect((await comp.json()).membership).toMatchObject({
      status: 'comped',
      tierId,
      currentPeriodEnd: null,
    });
    const account = await (await fetch(`${app.url}/account`, { headers: reader.headers })).text();
    expect(account).toContain('You have a complimentary membership. Tier: Friends.');
  });

  it('sends a reader who is not signed in to sign in first, and back to where they were', async () => {
    const res = await fetch(`${app.url}/membership`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url },
      body: `tierId=${tierId}&interval=year&returnTo=%2Fpost%2Fsome-post`,
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?redirectTo=%2Fpost%2Fsome-post');
  });
});
