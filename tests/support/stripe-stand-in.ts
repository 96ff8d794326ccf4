import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';
import { startSmtpServer, type TestSmtp } from './smtp.ts';

/**
 * A Stripe-compatible HTTP server for the tests (Stripe has no emulator): the official SDK,
 * pointed at it with STRIPE_API_URL, talks to it in Stripe's wire format — form-encoded
 * requests with bracketed keys, JSON objects back, Stripe's error body and Idempotency-Key
 * replay. Only what Penstand calls: Checkout Sessions (create, retrieve, expire; payment and
 * subscription mode; Stripe Tax's automatic_tax at the stand-in's one `taxRate`), Refunds, Customers, Subscriptions (retrieve, list, update, cancel) and
 * billing portal sessions. A subscription's period end is on its items, as the SDK's API version
 * has it; an invoice names its subscription under `parent.subscription_details`.
 */
export type StandInSession = {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  mode: string;
  currency: string;
  amount_total: number;
  /** The lines before tax (and discounts): what Stripe Tax taxes. */
  amount_subtotal: number;
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  /** Stripe Tax: needs the customer's address (given on the hosted page) before it is complete. */
  automatic_tax: {
    enabled: boolean;
    liability: { type: 'self' } | null;
    provider: 'stripe' | null;
    status: 'complete' | 'requires_location_inputs' | null;
  };
  client_reference_id: string | null;
  customer_email: string | null;
  expires_at: number;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  payment_intent: string | null;
  url: string;
  line_items_sent: {
    name: string;
    unit_amount: number;
    quantity: number;
    /** As sent: absent when the price named none. */
    tax_behavior?: 'inclusive' | 'exclusive';
  }[];
  customer: string | null;
  subscription: string | null;
  /** Subscription mode: the price's billing interval and the subscription's metadata, as sent. */
  interval: 'month' | 'year' | null;
  subscription_metadata: Record<string, string>;
};

export type StandInCustomer = {
  id: string;
  object: 'customer';
  email: string | null;
  metadata: Record<string, string>;
};

export type StandInSubscription = {
  id: string;
  object: 'subscription';
  customer: string;
  status: 'active' | 'past_due' | 'canceled' | 'unpaid';
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  currency: string;
  metadata: Record<string, string>;
  items: {
    object: 'list';
    data: {
      id: string;
      object: 'subscription_item';
      current_period_start: number;
      current_period_end: number;
      quantity: 1;
      price: {
        id: string;
        object: 'price';
        currency: string;
        unit_amount: number;
        recurring: { interval: 'month' | 'year'; interval_count: 1 };
      };
    }[];
  };
};

export type StandInPortalSession = {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string;
  url: string;
};

export type StandInRefund = {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'succeeded';
};

type StandInRequest = {
  method: string;
  path: string;
  body: Record<string, unknown>;
  idempotencyKey?: string;
};

export type SignedDelivery = {
  id: string;
  payload: string;
  signature: (secret: string, timestamp?: number) => string;
};

export type StripeStandIn = {
  url: string;
  requests: StandInRequest[];
  sessions: Map<string, StandInSession>;
  /** Every refund made (an idempotent replay makes none). */
  refunds: StandInRefund[];
  customers: Map<string, StandInCustomer>;
  subscriptions: Map<string, StandInSubscription>;
  portalSessions: Map<string, StandInPortalSession>;
  /** A subscription as Stripe bills it: a customer and one price (made by completing a subscription session). */
  subscribe: (
    customer: string,
    price: { currency: string; unit_amount: number; interval: 'month' | 'year' },
    metadata?: Record<string, string>,
  ) => StandInSubscription;
  /** The next period paid: the period moves on and the status is active again. */
  renew: (subscriptionId: string) => StandInSubscription;
  /** The renewal's card was declined: Stripe retries, the subscription is past due. */
  failRenewal: (subscriptionId: string) => StandInSubscription;
  /** The latest invoice of a subscription, paid or not, as invoice.* events carry it. */
  invoice: (subscriptionId: string, paid: boolean) => Record<string, unknown>;
  /** The period ended after a cancellation (or Stripe gave up): the subscription is canceled. */
  end: (subscriptionId: string) => StandInSubscription;
  /** The rate Stripe Tax applies here (percent, every address): Stripe's own comes from the customer's address. */
  taxRate: number;
  /** Awaited before a request is answered: a test holds a call there to race another writer against it. */
  beforeAnswer: ((request: StandInRequest) => Promise<void>) | null;
  /** The customer paid on the hosted page: the session completes with a payment intent. */
  complete: (sessionId: string) => StandInSession;
  /** A signed webhook delivery: the event's JSON and its Stripe-Signature header. */
  event: (type: string, object: unknown, opts?: { id?: string; created?: number }) => SignedDelivery;
  /** Any body, signed as Stripe signs a webhook: what a sender holding the secret could post. */
  signed: (payload: string) => SignedDelivery;
  close: () => Promise<void>;
};

const sdk = new Stripe('sk_test_stand_in');
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** `line_items[0][price_data][unit_amount]=5` → { line_items: [{ price_data: { unit_amount: '5' } }] } */
function decodeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const slot = node as Record<string, unknown>;
      if (last) slot[segment] = value;
      else {
        slot[segment] ??= /^\d+$/.test(path[i + 1]) ? [] : {};
        node = slot[segment] as Record<string, unknown>;
      }
    });
  }
  return root;
}

function stripeError(res: http.ServerResponse, status: number, code: string | undefined, message: string) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { type: 'invalid_request_error', code, message } }));
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StripeStandIn['requests'] = [];
  const sessions = new Map<string, StandInSession>();
  const refunds: StandInRefund[] = [];
  const captured = new Map<string, { amount: number; refunded: number; currency: string }>();
  const replays = new Map<string, string>();
  const customers = new Map<string, StandInCustomer>();
  const subscriptions = new Map<string, StandInSubscription>();
  const portalSessions = new Map<string, StandInPortalSession>();
  let url = '';
  const now = () => Math.floor(Date.now() / 1000);
  const periodSeconds = (interval: 'month' | 'year') => (interval === 'month' ? 30 : 365) * 86_400;
  const missing = (kind: string, key: string): [number, unknown] => [
    404,
    { code: 'resource_missing', message: `No such ${kind}: '${key}'` },
  ];

  function subscribe(
    customer: string,
    price: { currency: string; unit_amount: number; interval: 'month' | 'year' },
    metadata: Record<string, string> = {},
  ): StandInSubscription {
    const start = now();
    const subscription: StandInSubscription = {
      id: id('sub'),
      object: 'subscription',
      customer,
      status: 'active',
      cancel_at_period_end: false,
      canceled_at: null,
      currency: price.currency,
      metadata,
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            current_period_start: start,
            current_period_end: start + periodSeconds(price.interval),
            quantity: 1,
            price: {
              id: id('price'),
              object: 'price',
              currency: price.currency,
              unit_amount: price.unit_amount,
              recurring: { interval: price.interval, interval_count: 1 },
            },
          },
        ],
      },
    };
    subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  /** Customers, subscriptions and portal sessions: the billing side of the API. */
  function answerBilling(
    method: string,
    path: string,
    body: Record<string, unknown>,
  ): [number, unknown] | null {
    if (method === 'POST' && path === '/v1/customers') {
      const customer: StandInCustomer = {
        id: id('cus'),
        object: 'customer',
        email: (body.email as string) ?? null,
        metadata: (body.metadata as Record<string, string>) ?? {},
      };
      customers.set(customer.id, customer);
      return [200, customer];
    }
    const customer = /^\/v1\/customers\/(\w+)$/.exec(path);
    if (customer && method === 'GET') {
      const found = customers.get(customer[1]);
      return found ? [200, found] : missing('customer', customer[1]);
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const data = [...subscriptions.values()].filter((s) => !body.customer || s.customer === body.customer);
      return [200, { object: 'list', data, has_more: false, url: '/v1/subscriptions' }];
    }
    const subscription = /^\/v1\/subscriptions\/(\w+)$/.exec(path);
    if (subscription) {
      const found = subscriptions.get(subscription[1]);
      if (!found) return missing('subscription', subscription[1]);
      if (method === 'POST' && body.cancel_at_period_end !== undefined) {
        if (found.status === 'canceled')
          return [
            400,
            { message: 'A canceled subscription can only update its cancellation_details and metadata.' },
          ];
        found.cancel_at_period_end = body.cancel_at_period_end === 'true';
      }
      // Stripe merges the keys sent into the subscription's metadata.
      if (method === 'POST' && body.metadata)
        Object.assign(found.metadata, body.metadata as Record<string, string>);
      if (method === 'DELETE') {
        found.status = 'canceled';
        found.canceled_at = now();
      }
      return [200, found];
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const owner = String(body.customer ?? '');
      if (!customers.has(owner)) return missing('customer', owner);
      const session: StandInPortalSession = {
        id: id('bps'),
        object: 'billing_portal.session',
        customer: owner,
        return_url: String(body.return_url),
        url: '',
      };
      session.url = `${url}/portal/${session.id}`;
      portalSessions.set(session.id, session);
      return [200, session];
    }
    return null;
  }

  function answer(method: string, path: string, body: Record<string, unknown>): [number, unknown] {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const lines = (body.line_items as Record<string, Record<string, Record<string, string>>>[]) ?? [];
      const sent = lines.map((l) => ({
        name: String((l.price_data.product_data as unknown as Record<string, string>).name),
        unit_amount: Number(l.price_data.unit_amount),
        quantity: Number(l.quantity),
        ...(l.price_data.tax_behavior
          ? { tax_behavior: l.price_data.tax_behavior as unknown as 'inclusive' | 'exclusive' }
          : {}),
      }));
      const automaticTax = (body.automatic_tax as Record<string, string> | undefined)?.enabled === 'true';
      // Stripe refuses automatic tax on a price without a tax behaviour when the account sets no default.
      if (automaticTax && sent.some((l) => !l.tax_behavior))
        return [
          400,
          {
            message:
              'Automatic tax calculation in Checkout requires a valid tax_behavior on every price (or a default in your tax settings).',
          },
        ];
      const subtotal = sent.reduce((n, l) => n + l.unit_amount * l.quantity, 0);
      if (body.mode === 'subscription' && body.customer && !customers.has(String(body.customer)))
        return missing('customer', String(body.customer));
      const session: StandInSession = {
        id: id('cs_test'),
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        mode: String(body.mode),
        currency: String(lines[0]?.price_data?.currency ?? 'usd'),
        amount_total: subtotal,
        amount_subtotal: subtotal,
        total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
        automatic_tax: {
          enabled: automaticTax,
          liability: automaticTax ? { type: 'self' } : null,
          provider: automaticTax ? 'stripe' : null,
          status: automaticTax ? 'requires_location_inputs' : null,
        },
        client_reference_id: (body.client_reference_id as string) ?? null,
        customer_email: (body.customer_email as string) ?? null,
        expires_at: Number(body.expires_at),
        success_url: String(body.success_url),
        cancel_url: String(body.cancel_url),
        metadata: (body.metadata as Record<string, string>) ?? {},
        payment_intent: null,
        url: '',
        line_items_sent: sent,
        customer: (body.customer as string) ?? null,
        subscription: null,
        interval:
          (lines[0]?.price_data?.recurring as unknown as { interval?: 'month' | 'year' })?.interval ?? null,
        subscription_metadata:
          ((body.subscription_data as Record<string, unknown>)?.metadata as Record<string, string>) ?? {},
      };
      session.url = `${url}/pay/${session.id}`;
      sessions.set(session.id, session);
      return [200, session];
    }
    const found = /^\/v1\/checkout\/sessions\/([\w]+)(\/expire)?$/.exec(path);
    if (found) {
      const session = sessions.get(found[1]);
      if (!session)
        return [404, { code: 'resource_missing', message: `No such checkout.session: '${found[1]}'` }];
      if (found[2] && method === 'POST') {
        // Stripe's answer for a session already completed or expired (no error code).
        if (session.status !== 'open')
          return [
            400,
            {
              message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${session.status}\`.`,
            },
          ];
        session.status = 'expired';
      }
      return [200, session];
    }
    const billing = answerBilling(method, path, body);
    if (billing) return billing;
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = String(body.payment_intent ?? '');
      const charge = captured.get(intent);
      if (!charge) return [404, { code: 'resource_missing', message: `No such payment_intent: '${intent}'` }];
      const left = charge.amount - charge.refunded;
      const amount = body.amount === undefined ? left : Number(body.amount);
      if (left <= 0)
        return [400, { code: 'charge_already_refunded', message: 'Charge has already been refunded.' }];
      if (amount > left)
        return [
          400,
          {
            code: 'amount_too_large',
            message: `Refund amount ($${amount / 100}) is greater than unrefunded amount on charge ($${left / 100})`,
          },
        ];
      charge.refunded += amount;
      const refund: StandInRefund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: charge.currency,
        payment_intent: intent,
        status: 'succeeded',
      };
      refunds.push(refund);
      return [200, refund];
    }
    return [404, { code: 'resource_missing', message: `Unrecognized request URL (${method}: ${path})` }];
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'GET' && path.startsWith('/portal/')) {
        const portal = portalSessions.get(path.slice(8));
        res.writeHead(portal ? 200 : 404, { 'content-type': 'text/html' });
        res.end(
          `<!doctype html><link rel="icon" href="data:,"><title>Fake Stripe billing portal</title><h1>Fake Stripe billing portal</h1><p>${portal?.customer ?? ''}</p>${portal ? `<a href="${portal.return_url}">Return</a>` : ''}`,
        );
        return;
      }
      if (req.method === 'GET' && path.startsWith('/pay/')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          `<!doctype html><link rel="icon" href="data:,"><title>Fake Stripe Checkout</title><h1>Fake Stripe Checkout</h1><p>${path.slice(5)}</p>`,
        );
        return;
      }
      if (!/^Bearer sk_/.test(req.headers.authorization ?? ''))
        return stripeError(res, 401, 'api_key_invalid', 'Invalid API Key provided.');
      // GET parameters come in the query string, as the SDK sends them.
      const query = (req.url ?? '').split('?')[1] ?? '';
      const body = decodeForm(req.method === 'GET' ? query : Buffer.concat(chunks).toString('utf8'));
      const key = req.headers['idempotency-key'] as string | undefined;
      const request = { method: req.method ?? '', path, body, idempotencyKey: key };
      requests.push(request);
      await standIn.beforeAnswer?.(request);
      const replay = key && req.method === 'POST' ? replays.get(`${path} ${key}`) : undefined;
      if (replay) {
        res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        res.end(replay);
        return;
      }
      const [status, object] = answer(req.method ?? '', path, body);
      if (status >= 400) {
        const { code, message } = object as { code?: string; message: string };
        return stripeError(res, status, code, message);
      }
      const text = JSON.stringify(object);
      if (key && req.method === 'POST') replays.set(`${path} ${key}`, text);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const standIn: StripeStandIn = {
    url,
    requests,
    sessions,
    refunds,
    customers,
    subscriptions,
    portalSessions,
    taxRate: 10,
    beforeAnswer: null,
    subscribe,
    renew(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      const item = subscription.items.data[0];
      item.current_period_start = item.current_period_end;
      item.current_period_end += periodSeconds(item.price.recurring.interval);
      subscription.status = 'active';
      return subscription;
    },
    failRenewal(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      subscription.status = 'past_due';
      return subscription;
    },
    invoice(subscriptionId, paid) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      const item = subscription.items.data[0];
      return {
        id: id('in'),
        object: 'invoice',
        customer: subscription.customer,
        currency: item.price.currency,
        amount_due: item.price.unit_amount,
        amount_paid: paid ? item.price.unit_amount : 0,
        status: paid ? 'paid' : 'open',
        period_end: item.current_period_end,
        parent: {
          type: 'subscription_details',
          quote_details: null,
          subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
        },
      };
    },
    end(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
      subscription.status = 'canceled';
      subscription.canceled_at = now();
      return subscription;
    },
    complete(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'paid';
      if (session.mode === 'subscription') {
        const line = session.line_items_sent[0];
        if (!session.customer) {
          const made: StandInCustomer = {
            id: id('cus'),
            object: 'customer',
            email: session.customer_email,
            metadata: {},
          };
          customers.set(made.id, made);
          session.customer = made.id;
        }
        const customer = session.customer;
        session.subscription = subscribe(
          customer,
          {
            currency: session.currency,
            unit_amount: line.unit_amount,
            interval: session.interval ?? 'month',
          },
          session.subscription_metadata,
        ).id;
        return { ...session };
      }
      if (session.automatic_tax.enabled) {
        // The address is given on the page: each line taxed at the rate, rounded half up per line.
        const tax = session.line_items_sent.reduce((n, l) => {
          const amount = l.unit_amount * l.quantity;
          const part =
            l.tax_behavior === 'inclusive'
              ? amount - Math.round((amount * 100) / (100 + standIn.taxRate))
              : Math.round((amount * standIn.taxRate) / 100);
          return n + part;
        }, 0);
        const exclusive = session.line_items_sent.some((l) => l.tax_behavior === 'exclusive');
        session.total_details.amount_tax = tax;
        session.amount_total = session.amount_subtotal + (exclusive ? tax : 0);
        session.automatic_tax.status = 'complete';
      }
      session.payment_intent = id('pi');
      captured.set(session.payment_intent, {
        amount: session.amount_total,
        refunded: 0,
        currency: session.currency,
      });
      return { ...session };
    },
    event(type, object, opts = {}) {
      const eventId = opts.id ?? id('evt');
      const payload = JSON.stringify({
        id: eventId,
        object: 'event',
        api_version: '2025-01-01',
        created: opts.created ?? Math.floor(Date.now() / 1000),
        type,
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      });
      return { ...standIn.signed(payload), id: eventId };
    },
    signed: (payload) => ({
      id: '',
      payload,
      signature: (secret, timestamp) => sdk.webhooks.generateTestHeaderString({ payload, secret, timestamp }),
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return standIn;
}

/** Posts a signed delivery of the stand-in to the app's webhook: its status and JSON answer. */
export async function deliverSigned(
  app: TestApp,
  delivery: SignedDelivery,
  secret: string,
  timestamp?: number,
) {
  const res = await fetch(`${app.url}/api/payments/stripe/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': delivery.signature(secret, timestamp),
    },
    body: delivery.payload,
  });
  return { status: res.status, body: await res.json() };
}

export type CardPaymentsApp = { app: TestApp; stripe: StripeStandIn; smtp: TestSmtp };

/**
 * The app taking card payments through a fresh stand-in (the test signs its webhook events with
 * `webhookSecret`) and mailing to an SMTP server in process. Started before the tests of the file,
 * or of the describe block it is called in, and stopped after them.
 */
export function setUpCardPaymentsApp(webhookSecret: string, opts: TestAppOptions = {}): CardPaymentsApp {
  const stack = {} as CardPaymentsApp;
  beforeAll(async () => {
    [stack.stripe, stack.smtp] = await Promise.all([startStripeStandIn(), startSmtpServer()]);
    stack.app = await startTestApp({
      ...opts,
      env: {
        SMTP_URL: stack.smtp.url,
        STRIPE_SECRET_KEY: 'sk_test_penstand',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_URL: stack.stripe.url,
        ...opts.env,
      },
    });
  });
  afterAll(async () => {
    await stack.app?.close();
    await stack.smtp?.close();
    await stack.stripe?.close();
  });
  return stack;
}
