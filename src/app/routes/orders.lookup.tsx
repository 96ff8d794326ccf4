import { data, Form, Link, useNavigation } from 'react-router';
import { orderLink } from '../../orders/access-key.ts';
import { listDownloads } from '../../orders/downloads.ts';
import { lookupGuestOrder } from '../../orders/guest-lookup.ts';
import { isAwaitingPayment, paymentStatusLabel } from '../../orders/payment-labels.ts';
import { SHOP_MESSAGES } from '../../shop/messages.ts';
import { formatPrice } from '../../shop/price.ts';
import { Downloads } from '../components/shop/Downloads.tsx';
import { Notice } from '../components/shop/Notice.tsx';
import { OrderLines, orderDiscount, orderShipping, orderTax } from '../components/shop/OrderLines.tsx';
import { getApp } from '../context.ts';
import { useCurrency } from '../currency.ts';
import '../styles/shop.css';
import { RateLimited } from '../../kernel/errors.ts';
import { lineName } from '../../shop/line-name.ts';
import type { Route } from './+types/orders.lookup';

export const meta: Route.MetaFunction = () => [
  { title: 'Find your order — Penstand' },
  { name: 'robots', content: 'noindex' },
];

export async function action({ request, context }: Route.ActionArgs) {
  const { services, state } = getApp(context);
  const form = await request.formData();
  const rawId = String(form.get('orderId') ?? '')
    .trim()
    .replace(/^#/, '')
    .slice(0, 20);
  const email = String(form.get('email') ?? '')
    .trim()
    .slice(0, 254);
  const found = await lookupGuestOrder(services.db, state.clientIp, rawId, email).catch((error: unknown) => {
    if (error instanceof RateLimited) return error;
    throw error;
  });
  if (found instanceof RateLimited)
    return data({ found: null, orderId: rawId, email, limited: found.message }, { status: 429 });
  if (!found) return { found: null, orderId: rawId, email };
  const { order, items } = found;
  const orderUrl = new URL(await orderLink(services.db, services.publicUrl, order.id));
  return {
    orderId: rawId,
    email,
    found: {
      id: order.id,
      status: order.status,
      paymentStatus: order.paymentStatus,
      refundedAmount: order.refundedAmount,
      trackingNumber: order.trackingNumber,
      trackingUrl: order.trackingUrl,
      totalAmount: order.totalAmount,
      shipping: orderShipping(order),
      discount: orderDiscount(order),
      tax: orderTax(order),
      // The order's own page: its payment state, and Pay now while it waits for one.
      orderPath: `${orderUrl.pathname}${orderUrl.search}`,
      awaitingPayment: isAwaitingPayment(order),
      createdAt: order.createdAt,
      items: items.map((i) => ({
        id: i.id,
        name: lineName(i.productName, i.variant),
        quantity: i.quantity,
        price: i.priceAtTime,
      })),
      downloads: await listDownloads(services.db, order.id),
    },
  };
}

export default function OrderLookup({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const currency = useCurrency();
  const found = actionData?.found;
  return (
    <div className="container lookup-page">
      <h1>Find your order</h1>
      <p className="muted">
        Enter the order number from your confirmation and the email you used at checkout.
      </p>
      <Form method="post" className="card lookup-form">
        <div className="field">
          <label htmlFor="lookup-order">Order number</label>
          <input
            id="lookup-order"
            name="orderId"
            inputMode="numeric"
            required
            defaultValue={actionData?.orderId ?? ''}
          />
        </div>
        <div className="field">
          <label htmlFor="lookup-email">Email</label>
          <input
            id="lookup-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={actionData?.email ?? ''}
          />
        </div>
        <button type="submit" className="button" disabled={navigation.state === 'submitting'}>
          Find order
        </button>
      </Form>
      {actionData && !found && (
        <Notice
          tone="error"
          title={'limited' in actionData ? 'Error' : 'Order not found'}
          description={'limited' in actionData ? actionData.limited : SHOP_MESSAGES.orderLookupNotFound}
        />
      )}
      {found && (
        <section className="card" aria-labelledby="lookup-result">
          <h2 id="lookup-result">Order #{found.id}</h2>
          <p>
            Status: <strong>{found.status}</strong> · Payment: {paymentStatusLabel(found.paymentStatus)}
            {found.refundedAmount > 0 && ` (${formatPrice(found.refundedAmount, currency)} refunded)`}
            {found.trackingNumber ? (
              <>
                {' · Tracking: '}
                {found.trackingUrl ? (
                  <a href={found.trackingUrl}>{found.trackingNumber}</a>
                ) : (
                  found.trackingNumber
                )}
              </>
            ) : null}
          </p>
          <OrderLines
            lines={found.items.map((i) => ({
              id: i.id,
              name: i.name,
              quantity: i.quantity,
              unitPrice: i.price,
            }))}
            total={found.totalAmount}
            shipping={found.shipping}
            discount={found.discount}
            tax={found.tax}
          />
          <p>
            <Link to={found.orderPath} className={found.awaitingPayment ? 'button' : undefined}>
              {found.awaitingPayment ? 'Pay now' : 'View this order'}
            </Link>
          </p>
        </section>
      )}
      {found && <Downloads downloads={found.downloads} />}
      <p>
        <Link to="/shop">{SHOP_MESSAGES.continueShopping}</Link>
      </p>
    </div>
  );
}
