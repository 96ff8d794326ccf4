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
 * replay. Only what Penstand calls: Checkout Sessions (create, retrieve, expire) and Refunds.
 */
export type StandInSession = {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  mode: string;
  currency: string;
  amount_total: number;
  client_reference_id: string | null;
  customer_email: string | null;
  expires_at: number;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  payment_intent: string | null;
  url: string;
  line_items_sent: { name: string; unit_amount: number; quantity: number }[];
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
  let url = '';

  function answer(method: string, path: string, body: Record<string, unknown>): [number, unknown] {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const lines = (body.line_items as Record<string, Record<string, Record<string, string>>>[]) ?? [];
      const sent = lines.map((l) => ({
        name: String((l.price_data.product_data as unknown as Record<string, string>).name),
        unit_amount: Number(l.price_data.unit_amount),
        quantity: Number(l.quantity),
      }));
      const session: StandInSession = {
        id: id('cs_test'),
        object: 'checkout.session',
        status: 'open',
        payment_status: 'unpaid',
        mode: String(body.mode),
        currency: String(lines[0]?.price_data?.currency ?? 'usd'),
        amount_total: sent.reduce((n, l) => n + l.unit_amount * l.quantity, 0),
        client_reference_id: (body.client_reference_id as string) ?? null,
        customer_email: (body.customer_email as string) ?? null,
        expires_at: Number(body.expires_at),
        success_url: String(body.success_url),
        cancel_url: String(body.cancel_url),
        metadata: (body.metadata as Record<string, string>) ?? {},
        payment_intent: null,
        url: '',
        line_items_sent: sent,
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
      if (req.method === 'GET' && path.startsWith('/pay/')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          `<!doctype html><link rel="icon" href="data:,"><title>Fake Stripe Checkout</title><h1>Fake Stripe Checkout</h1><p>${path.slice(5)}</p>`,
        );
        return;
      }
      if (!/^Bearer sk_/.test(req.headers.authorization ?? ''))
        return stripeError(res, 401, 'api_key_invalid', 'Invalid API Key provided.');
      const body = decodeForm(Buffer.concat(chunks).toString('utf8'));
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
    beforeAnswer: null,
    complete(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = 'paid';
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
