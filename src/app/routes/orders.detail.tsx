import { Form, Link, redirect, useNavigation } from 'react-router';
import { orderAccessKey } from '../../orders/access-key.ts';
import { listDownloads } from '../../orders/downloads.ts';
import { orderDocuments } from '../../orders/invoices.ts';
import { getOrderItems } from '../../orders/lists.ts';
import { isAwaitingPayment, paymentStateLabel } from '../../orders/payment-labels.ts';
import { paymentSettings } from '../../orders/payment-settings.ts';
import { stripePaymentUrl } from '../../orders/payments.ts';
import { loadStream } from '../../orders/store.ts';
import { SHOP_MESSAGES } from '../../shop/messages.ts';
import { formatDateTime } from '../admin/format.ts';
import { Downloads } from '../components/shop/Downloads.tsx';
import { Notice } from '../components/shop/Notice.tsx';
import { OrderDocuments } from '../components/shop/OrderDocuments.tsx';
import { PlacedOrderLines } from '../components/shop/OrderLines.tsx';
import { getApp } from '../context.ts';
import { visibleOrder } from '../order-access.server.ts';
import '../styles/shop.css';
import { AppError } from '../../kernel/errors.ts';
import type { Route } from './+types/orders.detail';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Order #${loaderData?.order.id ?? ''} — Penstand` },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const url = new URL(request.url);
  const order = await visibleOrder(app, params.id, url.searchParams.get('key'));
  const { services } = app;
  const awaiting = isAwaitingPayment(order);
  return {
    order,
    items: await getOrderItems(services.db, order.id),
    documents: orderDocuments(await loadStream(services.db, order.id)).map(({ number, kind }) => ({
      number,
      kind,
    })),
    downloads: await listDownloads(services.db, order.id),
    key: await orderAccessKey(services.db, order.id),
    cardPayments: Boolean(services.stripe),
    instructions:
      awaiting && !services.stripe
        ? (await paymentSettings(services.db, { cardPayments: false })).instructions
        : null,
    returnedFromPayment: url.searchParams.get('payment') === 'done',
    cancelledPayment: url.searchParams.get('payment') === 'cancelled',
  };
}

/** 'Pay now': the open Stripe payment page of the order, or a new one. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const app = getApp(context);
  const form = await request.formData();
  const order = await visibleOrder(app, params.id, String(form.get('key') ?? ''));
  try {
    return redirect(await stripePaymentUrl(app.services, order.id), 303);
  } catch (error) {
    if (error instanceof AppError) return { message: error.message };
    throw error;
  }
}

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const {
    order,
    items,
    documents,
    downloads,
    key,
    cardPayments,
    instructions,
    returnedFromPayment,
    cancelledPayment,
  } = loaderData;
  const navigation = useNavigation();
  const awaiting = isAwaitingPayment(order);
  const paid = order.paymentStatus !== 'unpaid';
  return (
    <div className="container lookup-page order-page">
      <h1>Order #{order.id}</h1>
      {paid && returnedFromPayment && (
        <Notice
          tone="success"
          title="Payment received"
          description="Thank you! A receipt is on its way to your inbox."
        />
      )}
      {awaiting && cancelledPayment && (
        <Notice
          tone="info"
          title="Payment not completed"
          description="Your order is still reserved: you can pay now."
        />
      )}
      {actionData?.message && (
        <Notice tone="error" title="Payment could not be started" description={actionData.message} />
      )}
      <section className="card" aria-labelledby="order-payment">
        <h2 id="order-payment">Payment</h2>
        <p>
          <strong data-testid="payment-state">{paymentStateLabel(order, returnedFromPayment)}</strong>
        </p>
        {awaiting && order.holdUntil && (
          <p className="muted">
            Your items are reserved until{' '}
            <time dateTime={order.holdUntil}>{formatDateTime(order.holdUntil)}</time>.
          </p>
        )}
        {awaiting && cardPayments && (
          <Form method="post">
            <input type="hidden" name="key" value={key} />
            <button type="submit" className="button" disabled={navigation.state === 'submitting'}>
              {navigation.state === 'submitting' ? 'Opening the payment page…' : 'Pay now'}
            </button>
          </Form>
        )}
        {instructions !== null && (
          <div>
            <h3>How to pay</h3>
            <p className="payment-instructions">{instructions || 'We will contact you about the payment.'}</p>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="order-lines">
        <h2 id="order-lines">Items</h2>
        <p>
          Status: <strong>{order.status}</strong>
          {order.trackingNumber ? (
            <>
              {' · Tracking: '}
              {order.trackingUrl ? (
                <a href={order.trackingUrl}>{order.trackingNumber}</a>
              ) : (
                order.trackingNumber
              )}
            </>
          ) : null}
        </p>
        <PlacedOrderLines order={order} items={items} />
        <OrderDocuments base={`/orders/${order.id}`} query={`?key=${key}`} documents={documents} />
      </section>
      <Downloads downloads={downloads} />
      <p>
        <Link to="/shop">{SHOP_MESSAGES.continueShopping}</Link>
      </p>
    </div>
  );
}
