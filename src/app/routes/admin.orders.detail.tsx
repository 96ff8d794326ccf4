import type { ReactNode } from 'react';
import { data, Form, Link, useNavigation } from 'react-router';
import type { Db } from '../../db/knex.ts';
import { executeOrderCommand } from '../../orders/changes.ts';
import type { AdminOrderCommand } from '../../orders/domain.ts';
import {
  DOWNLOAD_MESSAGES,
  listDownloads,
  resendDownloads,
  resetDownloadLimit,
} from '../../orders/downloads.ts';
import { NO_SHIPPING } from '../../orders/fulfilment.ts';
import { orderDocuments } from '../../orders/invoices.ts';
import { getOrderWithHistory } from '../../orders/lists.ts';
import { PAYMENT_METHOD_LABELS, paymentStatusLabel } from '../../orders/payment-labels.ts';
import { cancelOrder, markOrderPaid, refundOrder } from '../../orders/payments.ts';
import type { OrderHistoryEvent } from '../../orders/presenters.ts';
import { loadStream } from '../../orders/store.ts';
import { listCarriers, trackingFor } from '../../shop/carriers.ts';
import { countryName } from '../../shop/countries.ts';
import { formatPrice, moneyInput, parseMoney } from '../../shop/price.ts';
import { formatDateTime } from '../admin/format.ts';
import { requireAdminUser } from '../admin/guard.server.ts';
import { Notice } from '../admin/Notice.tsx';
import { OrderDocuments } from '../components/shop/OrderDocuments.tsx';
import { getApp } from '../context.ts';
import '../styles/admin.css';
import { NotFound } from '../../kernel/errors.ts';
import { isRefusal } from '../../server/error-status.ts';
import { lineName } from '../../shop/line-name.ts';
import type { Route } from './+types/admin.orders.detail';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Order #${loaderData?.order.id ?? ''} — Admin` },
  { name: 'robots', content: 'noindex' },
];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'no-store' });

function orderId(raw: string): number {
  const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (!id) throw data('Order not found', 404);
  return id;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  requireAdminUser(context, request);
  const { db } = getApp(context).services;
  const found = await getOrderWithHistory(db, orderId(params.id));
  if (!found) throw data('Order not found', 404);
  return {
    ...found,
    documents: orderDocuments(await loadStream(db, found.order.id)).map(({ number, kind }) => ({
      number,
      kind,
    })),
    downloads: await listDownloads(db, found.order.id),
    carriers: await listCarriers(db),
  };
}

/** The downloads' own actions: they change grants and send mail, not the order's events. */
async function downloadAction(db: Db, id: number, form: FormData) {
  const intent = form.get('intent');
  if (intent === 'resend-downloads') {
    await resendDownloads(db, id);
    return { ok: true as const, title: 'Downloads email queued' };
  }
  if (intent === 'reset-download') {
    const grantId = /^\d{1,9}$/.test(String(form.get('grantId'))) ? Number(form.get('grantId')) : 0;
    if (!(await resetDownloadLimit(db, id, grantId))) throw new NotFound(DOWNLOAD_MESSAGES.notFound);
    return { ok: true as const, title: 'Download limit reset' };
  }
  return null;
}

const DONE: Record<AdminOrderCommand['type'], string> = {
  RecordPayment: 'Marked as paid',
  IssueRefund: 'Refund issued',
  ShipOrder: 'Order shipped',
  MarkDelivered: 'Order marked delivered',
  CancelOrder: 'Order cancelled',
};

function commandFrom(form: FormData): AdminOrderCommand | null {
  switch (form.get('intent')) {
    case 'record-payment':
      return { type: 'RecordPayment', reference: String(form.get('reference') ?? '').slice(0, 200) || null };
    case 'refund': {
      return {
        type: 'IssueRefund',
        // Typed in the shop's currency ("12.50"); anything else is 0, which the rules refuse.
        amount: parseMoney(String(form.get('amount') ?? '')) ?? 0,
        restock: form.get('restock') === 'on',
        refundId: null,
        reason: String(form.get('reason') ?? '').slice(0, 500) || undefined,
      };
    }
    case 'ship':
      return {
        type: 'ShipOrder',
        trackingNumber: String(form.get('trackingNumber') ?? '').slice(0, 100),
        carrier: String(form.get('carrier') ?? '').slice(0, 100),
      };
    case 'deliver':
      return { type: 'MarkDelivered' };
    case 'cancel':
      return { type: 'CancelOrder', reason: String(form.get('reason') ?? '') || undefined };
    default:
      return null;
  }
}

/** Order commands; the order service decides what is allowed and says why not. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireAdminUser(context, request);
  const { services } = getApp(context);
  const form = await request.formData();
  const id = orderId(params.id);
  try {
    const done = await downloadAction(services.db, id, form);
    if (done) return done;
  } catch (err) {
    if (isRefusal(err)) return { ok: false as const, title: 'Error', message: err.message };
    throw err;
  }
  const command = commandFrom(form);
  if (!command) return { ok: false as const, title: 'Error', message: 'Unknown action' };
  const metadata = { actor: 'admin', userId: user.id };
  try {
    if (command.type === 'RecordPayment')
      await markOrderPaid(services.db, id, command.reference ?? null, metadata);
    else if (command.type === 'IssueRefund') await refundOrder(services, id, command, metadata);
    else if (command.type === 'CancelOrder') await cancelOrder(services, id, command.reason, metadata);
    else if (command.type === 'ShipOrder' && command.trackingNumber.trim())
      await executeOrderCommand(
        services.db,
        id,
        { ...command, ...(await trackingFor(services.db, command.carrier ?? '', command.trackingNumber)) },
        metadata,
      );
    else await executeOrderCommand(services.db, id, command, metadata);
    return { ok: true as const, title: DONE[command.type] };
  } catch (err) {
    if (isRefusal(err)) return { ok: false as const, title: 'Error', message: err.message };
    throw err;
  }
}

const ACTION_LABELS: Record<AdminOrderCommand['type'], string> = {
  RecordPayment: 'Mark as paid',
  IssueRefund: 'Refund',
  ShipOrder: 'Ship Order',
  MarkDelivered: 'Mark Delivered',
  CancelOrder: 'Cancel Order',
};

const EVENT_LABELS: Record<string, string> = {
  OrderPlaced: 'Order placed',
  PaymentRecorded: 'Payment recorded',
  PaymentRequested: 'Payment page opened',
  PaymentSucceeded: 'Payment received',
  TaxAssessed: 'Tax calculated by Stripe Tax',
  PaymentFailed: 'Payment failed',
  PaymentToReview: 'Payment to review (not counted as paid)',
  OrderExpired: 'Expired unpaid',
  RefundIssued: 'Refund issued',
  OrderMailSent: 'Email sent',
  OrderShipped: 'Shipped',
  OrderDelivered: 'Delivered',
  OrderCancelled: 'Cancelled',
  ConfirmationEmailSent: 'Confirmation email sent',
  CustomerDataErased: "Customer's personal data erased (account deleted)",
};

function eventDetail(event: OrderHistoryEvent, currency: string): string | null {
  const d = (event.data ?? {}) as Record<string, unknown>;
  if (event.type === 'OrderShipped')
    return `${d.carrier ? `${String(d.carrier)}, tracking` : 'Tracking'} number ${String(d.trackingNumber)}`;
  if (event.type === 'OrderCancelled')
    return (
      [d.reason ? `Reason: ${String(d.reason)}` : null, d.refunded ? 'Payment to refund' : null]
        .filter(Boolean)
        .join('. ') || null
    );
  if (event.type === 'ConfirmationEmailSent') return `To ${String(d.to)}`;
  if (event.type === 'OrderMailSent') return `${String(d.kind)} to ${String(d.to)}`;
  if (event.type === 'PaymentRequested') return `Checkout Session ${String(d.checkoutSessionId)}`;
  if (event.type === 'PaymentFailed') return String(d.reason);
  if (event.type === 'PaymentToReview')
    return [
      d.amount === null ? null : formatPrice(Number(d.amount), String(d.currency ?? currency)),
      `Stripe event ${String(d.eventId)}`,
      `Checkout Session ${String(d.sessionId)}`,
      d.reference ? `payment ${String(d.reference)}` : null,
      String(d.reason),
    ]
      .filter(Boolean)
      .join(', ');
  if (event.type === 'PaymentSucceeded')
    return [
      `${formatPrice(Number(d.amount), String(d.currency ?? currency))} by ${String(d.method)}`,
      d.reference ? `reference ${String(d.reference)}` : null,
      d.afterExpiry === 'refund-needed' ? 'arrived after the order ended: refund it' : null,
      d.afterExpiry === 'reopened' ? 'arrived after expiry: order re-opened' : null,
    ]
      .filter(Boolean)
      .join(', ');
  if (event.type === 'RefundIssued')
    return [
      formatPrice(Number(d.amount), currency),
      d.restock ? 'restocked' : null,
      d.refundId ? `Stripe refund ${String(d.refundId)}` : null,
      d.reason ? String(d.reason) : null,
    ]
      .filter(Boolean)
      .join(', ');
  return null;
}

/** One order command as a form: its intent, any fields it asks for, and its button. */
function OrderActionForm({
  intent,
  label,
  busy,
  danger,
  children,
}: {
  intent: string;
  label: string;
  busy: boolean;
  danger?: boolean;
  children?: ReactNode;
}) {
  return (
    <Form method="post" className={children ? 'admin-filters' : undefined}>
      <input type="hidden" name="intent" value={intent} />
      {children}
      <button
        className={danger ? 'button button-danger' : 'button button-secondary'}
        type="submit"
        disabled={busy}
      >
        {label}
      </button>
    </Form>
  );
}

export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, items, events, actions, currency, documents, downloads, carriers } = loaderData;
  const unavailable = (Object.keys(actions) as AdminOrderCommand['type'][]).flatMap((type) => {
    const option = actions[type];
    return option.allowed ? [] : [[type, option.reason] as const];
  });
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  return (
    <div className="container admin admin-editor">
      <p>
        <Link to="/admin?tab=orders">← Back to Admin</Link>
      </p>
      <h1>Order #{order.id}</h1>
      <Notice result={actionData ?? null} />
      <p>
        <span className={`badge badge-order-${order.status}`}>{order.status}</span>{' '}
        <span className="badge">{order.paymentStatus}</span>
        {order.trackingNumber ? (
          <span className="muted">
            {' '}
            Tracking{order.carrier ? ` (${order.carrier})` : ''}:{' '}
            {order.trackingUrl ? (
              <a href={order.trackingUrl}>{order.trackingNumber}</a>
            ) : (
              order.trackingNumber
            )}
          </span>
        ) : null}
      </p>
      {order.refundNeeded && (
        <Notice
          result={{
            ok: false,
            title: 'Refund needed',
            message: 'This payment arrived after the order had ended and its items were gone: refund it.',
          }}
        />
      )}
      {events.some((e) => e.type === 'PaymentToReview') && (
        <Notice
          result={{
            ok: false,
            title: 'Payment to review',
            message:
              'Stripe reported a payment for this order that does not match it (see the history below): it was not counted as paid. Check it in Stripe and refund it there if it is not for this order.',
          }}
        />
      )}
      <section className="card" aria-labelledby="order-payment">
        <h2 id="order-payment">Payment</h2>
        <dl className="admin-facts">
          <dt>Status</dt>
          <dd>{paymentStatusLabel(order.paymentStatus)}</dd>
          <dt>Method</dt>
          <dd>{order.paymentMethod ? PAYMENT_METHOD_LABELS[order.paymentMethod] : '—'}</dd>
          <dt>Reference</dt>
          <dd>{order.paymentReference ?? '—'}</dd>
          <dt>Paid</dt>
          <dd>{formatPrice(order.paidAmount, currency)}</dd>
          <dt>Refunded</dt>
          <dd>{formatPrice(order.refundedAmount, currency)}</dd>
          {order.holdUntil && order.status === 'pending' && order.paymentStatus === 'unpaid' ? (
            <>
              <dt>Stock held until</dt>
              <dd>{formatDateTime(order.holdUntil)}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <div className="admin-columns">
        <section className="card" aria-labelledby="order-lines">
          <h2 id="order-lines">Items</h2>
          <ul className="admin-list">
            {items.map((item) => (
              <li key={item.id}>
                <span>
                  {lineName(item.productName, item.variant)} × {item.quantity}
                </span>
                <span>{formatPrice(item.priceAtTime * item.quantity, currency)}</span>
              </li>
            ))}
            {order.shippingMethod !== NO_SHIPPING && (
              <li>
                <span>Shipping ({order.shippingMethod})</span>
                <span>{order.shippingCost === 0 ? 'Free' : formatPrice(order.shippingCost, currency)}</span>
              </li>
            )}
            {order.discountCode ? (
              <li>
                <span>Discount ({order.discountCode})</span>
                <span>−{formatPrice(order.discountAmount, currency)}</span>
              </li>
            ) : null}
            {order.taxAmount > 0 && !order.taxIncluded ? (
              <li>
                <span>Tax</span>
                <span>{formatPrice(order.taxAmount, currency)}</span>
              </li>
            ) : null}
            <li>
              <strong>Total</strong>
              <strong>{formatPrice(order.totalAmount, currency)}</strong>
            </li>
            {order.taxAmount > 0 && order.taxIncluded ? (
              <li>
                <span>Including tax</span>
                <span>{formatPrice(order.taxAmount, currency)}</span>
              </li>
            ) : null}
            {order.refundedTax > 0 ? (
              <li>
                <span>Tax refunded</span>
                <span>{formatPrice(order.refundedTax, currency)}</span>
              </li>
            ) : null}
          </ul>
          <OrderDocuments base={`/api/admin/orders/${order.id}`} documents={documents} />
        </section>
        <section className="card" aria-labelledby="order-customer">
          <h2 id="order-customer">Customer</h2>
          <p>
            {order.firstName} {order.lastName}
            <br />
            {order.email}
            {order.phone ? (
              <>
                <br />
                {order.phone}
              </>
            ) : null}
          </p>
          {order.address ? (
            <p>
              {order.address}
              <br />
              {order.postalCode} {order.city}
              <br />
              {countryName(order.country)}
            </p>
          ) : (
            <p className="muted">Nothing ships: every item is a download.</p>
          )}
        </section>
      </div>
      {downloads.length > 0 && (
        <section className="card" aria-labelledby="order-downloads">
          <h2 id="order-downloads">Downloads</h2>
          <ul className="admin-list">
            {downloads.map((d) => (
              <li key={d.id}>
                <span>
                  {d.name} ({d.fileName}): {d.downloads} of {d.limit} downloads, until{' '}
                  {formatDateTime(d.expiresAt)}
                  {d.revoked ? ' · revoked' : ''}
                </span>
                {!d.revoked && d.downloads > 0 && (
                  <OrderActionForm intent="reset-download" label={`Reset the limit of ${d.name}`} busy={busy}>
                    <input type="hidden" name="grantId" value={d.id} />
                  </OrderActionForm>
                )}
              </li>
            ))}
          </ul>
          {downloads.some((d) => !d.revoked) && (
            <OrderActionForm intent="resend-downloads" label="Re-send the downloads email" busy={busy} />
          )}
        </section>
      )}
      <section className="card" aria-labelledby="order-actions">
        <h2 id="order-actions">Actions</h2>
        <div className="admin-stack">
          {actions.RecordPayment.allowed && (
            <OrderActionForm intent="record-payment" label="Mark as paid" busy={busy}>
              <div className="field">
                <label htmlFor="reference">Payment reference (optional)</label>
                <input
                  id="reference"
                  name="reference"
                  maxLength={200}
                  placeholder="Bank transfer reference"
                />
              </div>
            </OrderActionForm>
          )}
          {actions.IssueRefund.allowed && (
            <OrderActionForm intent="refund" label="Refund" busy={busy} danger>
              <div className="field">
                <label htmlFor="amount">Refund amount ({currency.toUpperCase()})</label>
                <input
                  id="amount"
                  name="amount"
                  inputMode="decimal"
                  required
                  defaultValue={moneyInput(order.paidAmount - order.refundedAmount)}
                />
              </div>
              <div className="field admin-checkbox">
                <input id="restock" name="restock" type="checkbox" />
                <label htmlFor="restock">Put the items back in stock</label>
              </div>
            </OrderActionForm>
          )}
          {actions.ShipOrder.allowed && (
            <OrderActionForm intent="ship" label="Ship Order" busy={busy}>
              <div className="field">
                <label htmlFor="carrier">Carrier</label>
                <select id="carrier" name="carrier" required>
                  {carriers.map((c) => (
                    <option key={c.id} value={c.name}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="trackingNumber">Tracking number</label>
                <input id="trackingNumber" name="trackingNumber" required />
              </div>
            </OrderActionForm>
          )}
          {actions.MarkDelivered.allowed && (
            <OrderActionForm intent="deliver" label="Mark Delivered" busy={busy} />
          )}
          {actions.CancelOrder.allowed && (
            <OrderActionForm intent="cancel" label="Cancel Order" busy={busy} danger>
              <div className="field">
                <label htmlFor="reason">Cancellation reason (optional)</label>
                <input id="reason" name="reason" />
              </div>
            </OrderActionForm>
          )}
          {unavailable.length > 0 && (
            <div>
              <h3 className="admin-sub-heading">Not available now</h3>
              <ul className="admin-unavailable">
                {unavailable.map(([type, reason]) => (
                  <li key={type}>
                    <strong>{ACTION_LABELS[type]}</strong>: <span className="muted">{reason}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </section>
      <section className="card" aria-labelledby="order-history">
        <h2 id="order-history">History</h2>
        <ol className="admin-timeline">
          {events.map((event) => (
            <li key={event.version}>
              <strong>{EVENT_LABELS[event.type] ?? event.type}</strong>{' '}
              <span className="muted">{formatDateTime(event.createdAt)}</span>
              {eventDetail(event, currency) ? <p>{eventDetail(event, currency)}</p> : null}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
